import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, inject, it, vi } from 'vitest';
import { openTestDatabase } from '../test/databases.js';
import { freePort } from '../test/ports.js';
import { pingDatabase } from './database.js';
import { isDatabaseUnreachable, untilDatabaseAnswers } from './outage.js';

const postgresUrl = inject('postgresUrl');

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('isDatabaseUnreachable', () => {
  it('knows a refused connection, a server ending its sessions or starting up, and a connection cut under a query', async () => {
    const port = await freePort();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'nothing' });
    const error = await client.connect().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isDatabaseUnreachable(error)).toBe(true);
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', 'ECONNRESET'])
      expect(isDatabaseUnreachable(Object.assign(new Error('x'), { code })), code).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // Node's error when every address of the host refused.
    expect(isDatabaseUnreachable(new AggregateError([refused(), refused()], ''))).toBe(true);
  });

  it('does not take a failed statement, or anything else, for an outage', async () => {
    for (const code of ['42601', '23505', '40001', 'SQLITE_BUSY', 'SQLITE_CONSTRAINT_UNIQUE'])
      expect(isDatabaseUnreachable(Object.assign(new Error('x'), { code })), code).toBe(false);
    expect(isDatabaseUnreachable(new Error('relation "nope" does not exist'))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });
});

describe('untilDatabaseAnswers', () => {
  it('runs the work again while the database cannot be reached, and answers once it can', async () => {
    let calls = 0;
    const answer = await untilDatabaseAnswers(async () => {
      if (++calls < 3) throw refused();
      return 'settled';
    }, 10_000);
    expect([answer, calls]).toEqual(['settled', 3]);
  });

  it('throws at once on any other error, and the outage itself once its time is up', async () => {
    let calls = 0;
    const failed = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(
      untilDatabaseAnswers(async () => {
        calls++;
        throw failed;
      }, 10_000),
    ).rejects.toBe(failed);
    expect(calls).toBe(1);

    const started = Date.now();
    await expect(
      untilDatabaseAnswers(async () => {
        throw refused();
      }, 600),
    ).rejects.toThrow('ECONNREFUSED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe.skipIf(!postgresUrl)('the PostgreSQL pool after the server ended every session', () => {
  it('is not poisoned: the next queries run on new connections', async () => {
    const handle = await openTestDatabase('postgres');
    try {
      // Ten connections open at once (each transaction holds its own until all ten are open), then idle in the pool.
      let open = 0;
      let allOpen!: () => void;
      const together = new Promise<void>((r) => (allOpen = r));
      await Promise.all(
        Array.from({ length: 10 }, () =>
          handle.db.transaction().execute(async (trx) => {
            await sql`select 1`.execute(trx);
            if (++open === 10) allOpen();
            await together;
          }),
        ),
      );
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(handle.db);
      const admin = new pg.Client({ connectionString: postgresUrl! });
      await admin.connect();
      try {
        const ended = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [rows[0]!.name],
        );
        expect(ended.rowCount).toBeGreaterThanOrEqual(10);
        // pg_terminate_backend only signals: wait until the sessions have left the server (each has
        // told its client by then), so no ping is sent to a session that is still ending.
        for (let waited = 0; ; waited++) {
          const left = await admin.query(
            'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [rows[0]!.name],
          );
          if (left.rows[0].n === 0) break;
          if (waited > 500) throw new Error('the ended sessions did not leave the server');
          await new Promise((r) => setTimeout(r, 10));
        }
      } finally {
        await admin.end();
      }
      for (let i = 0; i < 20; i++) await pingDatabase(handle.db);
      await Promise.all(Array.from({ length: 10 }, () => pingDatabase(handle.db)));
    } finally {
      await handle.close();
    }
  });
});

describe.skipIf(!postgresUrl)('a connection the server ends between two statements of a transaction', () => {
  it('fails that transaction only: the process lives on and the pool answers the next queries', async () => {
    const handle = await openTestDatabase('postgres');
    const admin = new pg.Client({ connectionString: postgresUrl! });
    await admin.connect();
    try {
      const failed = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // No statement of ours is running when the server ends the session.
          const pid = rows[0]!.pid;
          await admin.query('select pg_terminate_backend($1)', [pid]);
          // Once the session is gone from the server, the next statement of the transaction is sent.
          await vi.waitFor(
            async () =>
              expect((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount).toBe(0),
            { timeout: 10_000 },
          );
          await sql`select 1`.execute(trx);
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(isDatabaseUnreachable(failed)).toBe(true);
      for (let i = 0; i < 5; i++) await pingDatabase(handle.db);
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
