import path from 'node:path';
import type { Config } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';
import { S3Storage } from './s3.js';
import type { Storage } from './storage.js';

/**
 * Chooses the storage provider from configuration: an S3-compatible bucket when S3_BUCKET is set
 * (then nothing is written under DATA_DIR/files; the SDK loads on first use), else local disk.
 */
export function createStorage(config: Config): Storage {
  if (config.s3) return new S3Storage(config.s3);
  return new LocalDiskStorage(path.join(config.dataDir, 'files'));
}
