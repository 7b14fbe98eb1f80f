/**
 * The database: SQLite (better-sqlite3, `$DATA_DIR/app.db`, WAL) by default, PostgreSQL (pg)
 * when DATABASE_URL is set. Both go through Kysely with the same migrations and repositories.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrations.js';

export type DatabaseKind = 'sqlite' | 'postgres';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 13 on Node 22 and later; 12 on Node 20. The 12 line aborts the process on Node 24
 * when a statement is collected after Node's environment is gone (at exit, or a worker thread's
 * end); 13 fixes that but no longer runs on Node 20. Both have the same API. 13 is an optional
 * dependency (its engines say Node 22 and later, so an install on Node 20 leaves it out, without a
 * warning): a Node 22 or later that runs what Node 20 installed is told to install again. When
 * Node 20 support ends, 13 alone stays.
 */
function sqliteDriver(): typeof import('better-sqlite3') {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) return require('better-sqlite3') as typeof import('better-sqlite3');
  try {
    return require('better-sqlite3-13') as typeof import('better-sqlite3');
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      `SQLite's driver for Node ${major} (better-sqlite3 13) is not installed: the dependencies were installed by an older Node. Run \`npm ci\` again with this Node.`,
      { cause: err },
    );
  }
}

/**
 * SQLite transactions begin IMMEDIATE: the write lock is taken (waiting up to the busy timeout)
 * when the transaction starts. A deferred one (Kysely's plain `begin`) reads first and asks for
 * the lock at its first write; when another process on the file (an API and its worker) has
 * committed anything in between, even its heartbeat, SQLite refuses that write at once with
 * SQLITE_BUSY_SNAPSHOT, without waiting: a guarded refund (read the try-on, then update it)
 * would fail and the try-on's answer become an internal error.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A connection the server ends (restarting, failing over) must not end the process. The pool
    // listens for an idle client's error (the 'error' below); a client in use is left to its user,
    // and between two statements of a transaction no query is there to take the error: an
    // 'error' event without a listener would throw. The client is unusable after it either way:
    // its next query fails, and the pool drops it when it is released.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // PostgreSQL serialises concurrent migrators with an advisory lock.
    return migrated(db, 'postgres');
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // SQLite migrations are not transactional, and switching a file to WAL needs it to itself: two
  // processes starting on one file at once (an API and a worker) take turns.
  return withStartupLock(options.dataDir, () => {
    const file = path.join(options.dataDir, 'app.db');
    createPrivately(file);
    const SQLite = sqliteDriver();
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Deleted rows are overwritten with zeros, not left in free space (see `flushDeletedData`).
    sqlite.pragma('secure_delete = ON');
    sqlite.pragma('busy_timeout = 5000');
    return migrated(new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) }), 'sqlite');
  });
}

async function migrated(db: Kysely<Database>, kind: DatabaseKind): Promise<DatabaseHandle> {
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, kind, close: () => db.destroy() };
}

/**
 * Runs `work` holding an exclusive lock on a small SQLite file beside the database, so processes
 * opening one data directory set it up one at a time. Waits without blocking the event loop.
 */
async function withStartupLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const file = path.join(dataDir, 'startup.lock');
  createPrivately(file);
  const SQLite = sqliteDriver();
  // No busy timeout: better-sqlite3 would wait for the lock synchronously, blocking the thread.
  const lock = new SQLite(file, { timeout: 0 });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
        await sleep(25 + Math.floor(Math.random() * 50));
      }
    }
    try {
      return await work();
    } finally {
      lock.exec('COMMIT');
    }
  } finally {
    lock.close();
  }
}

/**
 * Creates the SQLite file readable by this user only (0600) before SQLite opens it, and tightens
 * an existing one and its -wal/-shm files. SQLite gives the -wal and -shm files it creates the
 * main file's permissions.
 */
function createPrivately(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** True when this handle (or transaction) talks to PostgreSQL. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * After personal data was deleted (an account): SQLite copies the write-ahead log into the file
 * (where `secure_delete` has zeroed the deleted rows) and empties the log, so the data leaves
 * both files now rather than at the next automatic checkpoint. PostgreSQL: nothing (its space is
 * reclaimed by autovacuum).
 */
export async function flushDeletedData(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}

/** A cheap round trip, for the health check. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
