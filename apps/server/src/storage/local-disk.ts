/**
 * Local-disk storage under `$DATA_DIR/files`. Writes go to a temporary file, then rename; files
 * are 0600 and folders 0700 (readable by the server's user only).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CONTENT_TYPES, assertValidKey, type Storage, type StoredObject, type StoredStream } from './storage.js';

export class LocalDiskStorage implements Storage {
  readonly kind = 'local';
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Uint8Array, _contentType: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = path.join(this.root, `.tmp-${randomBytes(8).toString('hex')}`);
    await fs.writeFile(tmp, body, { mode: 0o600 });
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const body = await fs.readFile(this.pathOf(key));
      return { body, contentType: CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async open(key: string): Promise<StoredStream | null> {
    const file = this.pathOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    // The open handle keeps the bytes readable even if retention deletes the file meanwhile.
    const { size } = await handle.stat();
    return {
      stream: handle.createReadStream(),
      contentType: CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream',
      size,
    };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async listOlderThan(prefix: string, before: Date, limit: number): Promise<string[]> {
    const area = prefix.replace(/\/$/, '');
    const dir = path.join(this.root, area);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: string[] = [];
    for (const name of names) {
      if (out.length >= limit) break;
      try {
        const st = await fs.stat(path.join(dir, name));
        if (st.isFile() && st.mtime < before) out.push(`${area}/${name}`);
      } catch {
        // deleted meanwhile
      }
    }
    return out;
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true, mode: 0o700 });
    await fs.access(this.root, fs.constants.W_OK);
  }
}
