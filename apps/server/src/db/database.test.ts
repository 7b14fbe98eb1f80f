/** Opening the SQLite database: concurrent openers of one file (an API and a worker starting together). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.js';

const handles: DatabaseHandle[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('SQLite database', () => {
  it('migrates once when several openers start on a fresh file at the same moment', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aidu-db-'));
    dirs.push(dataDir);
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ dataDir, databaseUrl: undefined })),
    );
    handles.push(...opened);
    const applied = await opened[0]!.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    const names = (applied as { name: string }[]).map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('001_initial');
    // Every handle works on the one schema.
    for (const h of opened) expect(await h.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect((fs.statSync(path.join(dataDir, 'startup.lock')).mode & 0o777).toString(8)).toBe('600');
  });
});
