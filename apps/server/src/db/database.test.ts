/**
 * The SQLite database shared by processes on one file (an API and a worker): concurrent openers,
 * and transactions while the other process writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
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

  it('a transaction that reads, then writes, holds while another process commits in between (its heartbeat)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aidu-db-'));
    dirs.push(dataDir);
    const handle = await openDatabase({ dataDir, databaseUrl: undefined });
    handles.push(handle);
    // The other process: its own connection to the file, with the server's busy timeout.
    const driver = createRequire(import.meta.url).resolve(
      Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-13' : 'better-sqlite3',
    );
    const other = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const db = new (require(workerData.driver))(workerData.file);
       db.pragma('busy_timeout = 5000');
       // The clock both threads share: the epoch in milliseconds, finer than one.
       const now = () => performance.timeOrigin + performance.now();
       parentPort.on('message', (id) => {
         parentPort.postMessage('writing');
         try {
           db.prepare("insert into processes (id, kind, host, pid, started_at, heartbeat_at) values (?, 'worker', 'h', 1, 't', 't')").run(id);
           parentPort.postMessage('written at ' + now());
         } catch (err) {
           parentPort.postMessage(String(err.code));
         }
       });
       parentPort.postMessage('ready');`,
      { eval: true, workerData: { driver, file: path.join(dataDir, 'app.db') } },
    );
    const messages: string[] = [];
    other.on('message', (m: string) => messages.push(m));
    const heard = (n: number) => vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(n));
    const now = () => performance.timeOrigin + performance.now();
    try {
      await heard(1);
      expect(messages[0]).toBe('ready');
      let committing = 0;
      await handle.db.transaction().execute(async (trx) => {
        // Read first (a guarded refund reads the try-on, then updates it) ...
        await trx.selectFrom('processes').select('id').execute();
        // ... while the other process writes: it waits for this transaction (or would commit first).
        other.postMessage('other');
        await heard(2);
        expect(messages[1]).toBe('writing');
        await trx
          .insertInto('processes')
          .values({ id: 'this', kind: 'api', host: 'h', pid: 2, started_at: 't', heartbeat_at: 't' })
          .execute();
        committing = now();
      });
      await heard(3);
      // The other process began its write before this one, and finished it only after this
      // transaction had written and was committing: it waited; neither write was refused.
      const writtenAt = Number(/^written at (.+)$/.exec(messages[2]!)?.[1]);
      expect(writtenAt, messages[2]).toBeGreaterThan(committing);
      const ids = (await handle.db.selectFrom('processes').select('id').execute()).map((r) => r.id).sort();
      expect(ids).toEqual(['other', 'this']);
    } finally {
      await other.terminate();
    }
  });
});
