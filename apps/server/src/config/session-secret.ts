/**
 * The session secret: SESSION_SECRET, or one generated on first run and kept in
 * `$DATA_DIR/session-secret` (mode 600). The API signs session cookies with it; without PHOTO_KEY,
 * kept person photos are sealed with a key derived from it, so a worker on the same DATA_DIR (or
 * with the same SESSION_SECRET) resolves it the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';

/** SESSION_SECRET, or the secret kept in the data folder (created on first run). */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  // The data folder holds the database and this secret: readable by the server's user only.
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(config.dataDir, 'session-secret');
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  return secret;
}
