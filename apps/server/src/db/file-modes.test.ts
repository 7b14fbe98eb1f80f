/** The data files are readable by the server's user only: the SQLite file, its -wal/-shm, stored files. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';

const make = testApps('sqlite');

const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe('data file permissions', () => {
  it('creates app.db, app.db-wal, app.db-shm and stored files 0600 and folders 0700, even under a lax umask', async () => {
    const old = process.umask(0o000);
    try {
      const t = await make();
      const { cookie, user } = await signIn(t.app);
      const res = await postMultipart(
        t.app,
        '/api/process-image',
        {
          userImage: { data: await jpeg() },
          clothingImage: { data: await png(), contentType: 'image/png' },
          category: 'upper_body',
          userId: user.id,
        },
        cookie,
      );
      expect(res.statusCode).toBe(200);
      const dir = t.config.dataDir;
      for (const f of ['app.db', 'app.db-wal', 'app.db-shm'])
        expect([f, mode(path.join(dir, f)).toString(8)]).toEqual([f, '600']);
      const results = path.join(dir, 'files', 'results');
      const stored = fs.readdirSync(results);
      expect(stored).toHaveLength(1);
      expect(mode(path.join(results, stored[0]!)).toString(8)).toBe('600');
      expect(mode(results).toString(8)).toBe('700');
    } finally {
      process.umask(old);
    }
  });

  it('tightens an existing world-readable database file on start', async () => {
    const first = await make();
    const dir = first.config.dataDir;
    await first.app.close();
    fs.chmodSync(path.join(dir, 'app.db'), 0o644);
    await make({ dataDir: dir });
    expect(mode(path.join(dir, 'app.db')).toString(8)).toBe('600');
  });
});
