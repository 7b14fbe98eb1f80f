import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './test/databases.js';
import { isAlive, keepAlive } from './worker-alive.js';

describe('the worker’s liveness file', () => {
  it('is alive while the worker touches it, and not once it is stale or missing', async () => {
    const file = path.join(tempDir('aidressup-alive-'), 'worker.alive');
    expect(isAlive(file)).toBe(false);
    const stop = keepAlive(file);
    try {
      await expect.poll(() => isAlive(file)).toBe(true);
      expect(isAlive(file, Date.now() + 29_000)).toBe(true);
      expect(isAlive(file, Date.now() + 31_000)).toBe(false);
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(file, old, old);
      expect(isAlive(file)).toBe(false);
    } finally {
      stop();
    }
  });
});
