/**
 * File storage behind one interface: local disk by default, any S3-compatible store when
 * S3_BUCKET is set (chosen in create-storage.ts).
 * Keys are `<area>/<name>`, e.g. `results/<unguessable>.jpg`; never a client file name.
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

/** An object being read: its bytes arrive as they are read from the store. */
export interface StoredStream {
  stream: Readable;
  contentType: string;
  /** In bytes, when the store says. */
  size: number | undefined;
}

export interface Storage {
  readonly kind: string;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  /** Opens an object for streaming (results to the browser); null when there is no such object. */
  open(key: string): Promise<StoredStream | null>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under `prefix` (e.g. `uploads/`) last written before `before`, at most `limit`. */
  listOlderThan(prefix: string, before: Date, limit: number): Promise<string[]>;
  /** Throws when the store cannot be written (for the health check). */
  check(): Promise<void>;
  /** Releases connections (S3); optional. */
  close?(): Promise<void>;
}

const KEY_PATTERN = /^[a-z][a-z0-9-]{0,30}\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}$/;

export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
}

export const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};
