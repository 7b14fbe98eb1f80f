import path from 'node:path';
import type { Config } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';
import type { Storage } from './storage.js';

/** Chooses the storage provider from configuration (S3 is refused at configuration time in this build). */
export function createStorage(config: Config): Storage {
  return new LocalDiskStorage(path.join(config.dataDir, 'files'));
}
