import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startS3StandIn, type S3StandIn } from '../test/stand-ins/s3-stand-in.js';
import { createStorage } from './create-storage.js';
import { S3Storage, StorageUnavailableError } from './s3.js';

describe('S3 storage against the s3rver stand-in', () => {
  let s3: S3StandIn;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    const created = createStorage(loadConfig({ NODE_ENV: 'test', ...s3.env }));
    expect(created).toBeInstanceOf(S3Storage);
    storage = created as S3Storage;
  });
  afterAll(async () => {
    await storage.close();
    await s3.close();
  });

  it('puts, gets and deletes objects; a missing object is null and deleting it is no error', async () => {
    const body = Buffer.from('not really a jpeg, but bytes all the same');
    await storage.put('results/abc_DEF-1.jpg', body, 'image/jpeg');
    expect(s3.keys()).toContain('results/abc_DEF-1.jpg');
    const got = await storage.get('results/abc_DEF-1.jpg');
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.body.equals(body)).toBe(true);

    expect(await storage.get('results/missing.png')).toBeNull();
    await storage.delete('results/abc_DEF-1.jpg');
    expect(await storage.get('results/abc_DEF-1.jpg')).toBeNull();
    expect(s3.keys()).not.toContain('results/abc_DEF-1.jpg');
    await expect(storage.delete('results/abc_DEF-1.jpg')).resolves.toBeUndefined();
    await expect(storage.put('../escape.jpg', body, 'image/jpeg')).rejects.toThrow(/invalid storage key/);
  });

  it('streams an object with its type and size; a missing one is null', async () => {
    const body = Buffer.alloc(300_000, 7);
    await storage.put('results/streamed.png', body, 'image/png');
    const opened = await storage.open('results/streamed.png');
    expect(opened?.contentType).toBe('image/png');
    expect(opened?.size).toBe(body.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect(await storage.open('results/nothing-here.png')).toBeNull();
  });

  it('lists keys under a prefix written before a time, at most a limit, across pages', async () => {
    for (let i = 0; i < 5; i++) await storage.put(`uploads/u${i}.png`, Buffer.from([i]), 'image/png');
    await storage.put('results/r0.png', Buffer.from([9]), 'image/png');
    const later = new Date(Date.now() + 60_000);
    expect((await storage.listOlderThan('uploads/', later, 100)).sort()).toEqual([
      'uploads/u0.png',
      'uploads/u1.png',
      'uploads/u2.png',
      'uploads/u3.png',
      'uploads/u4.png',
    ]);
    expect(await storage.listOlderThan('uploads/', later, 2)).toHaveLength(2);
    expect(await storage.listOlderThan('uploads/', new Date(Date.now() - 60_000), 100)).toEqual([]);
    for (let i = 0; i < 5; i++) await storage.delete(`uploads/u${i}.png`);
    await storage.delete('results/r0.png');
  });

  it('checks the bucket, and fails with a 503 StorageUnavailableError while the store is gone', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
    const wrongBucket = new S3Storage({
      ...loadConfig({ NODE_ENV: 'test', ...s3.env, S3_BUCKET: 'no-such-bucket' }).s3!,
      maxAttempts: 1,
    });
    await expect(wrongBucket.check()).rejects.toBeInstanceOf(StorageUnavailableError);
    await wrongBucket.close();

    await s3.stop();
    try {
      for (const op of [
        () => storage.check(),
        () => storage.get('results/x.png'),
        () => storage.put('results/x.png', Buffer.from([1]), 'image/png'),
        () => storage.delete('results/x.png'),
      ]) {
        const err = await op().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(StorageUnavailableError);
        expect((err as StorageUnavailableError).statusCode).toBe(503);
      }
    } finally {
      await s3.start();
    }
    // Back again: the same objects, the same client.
    await storage.put('results/back.png', Buffer.from([7]), 'image/png');
    expect((await storage.get('results/back.png'))?.body).toEqual(Buffer.from([7]));
  });
});
