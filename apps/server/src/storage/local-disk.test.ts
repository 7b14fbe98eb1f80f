/** Local-disk storage: objects written whole, read whole or streamed, private to the server's user. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aidu-files-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('local-disk storage', () => {
  const storage = new LocalDiskStorage(root);

  it('streams an object with its type and size, even when it is deleted while being read', async () => {
    const body = Buffer.alloc(300_000, 9);
    await storage.put('results/streamed.jpg', body, 'image/jpeg');
    const opened = await storage.open('results/streamed.jpg');
    expect(opened?.contentType).toBe('image/jpeg');
    expect(opened?.size).toBe(body.length);
    await storage.delete('results/streamed.jpg');
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect(await storage.open('results/streamed.jpg')).toBeNull();
  });

  it('refuses keys that could leave its folder', async () => {
    await expect(storage.open('../outside.jpg')).rejects.toThrow(/invalid storage key/);
  });
});
