/** Fresh databases for tests: a new SQLite file, or a new database in the test PostgreSQL cluster. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../db/database.js';

const postgresUrl = inject('postgresUrl');

/** The databases every integration suite runs against. */
export const DATABASE_KINDS: DatabaseKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export function tempDir(prefix = 'aidressup-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Creates an empty PostgreSQL database (t_<random>) in the test cluster, or in the server at
 * `serverUrl` (a suite's own cluster); returns its URL.
 */
export async function createPostgresDatabase(serverUrl: string | null = postgresUrl): Promise<string> {
  if (!serverUrl) throw new Error('PostgreSQL is not available in this test run');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Environment for a fresh database of this kind: DATA_DIR always, DATABASE_URL for PostgreSQL. */
export async function freshDatabaseEnv(kind: DatabaseKind): Promise<{ DATA_DIR: string; DATABASE_URL?: string }> {
  const DATA_DIR = tempDir();
  return kind === 'postgres' ? { DATA_DIR, DATABASE_URL: await createPostgresDatabase() } : { DATA_DIR };
}

export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  const env = await freshDatabaseEnv(kind);
  return openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, poolSize: 25 });
}
