/**
 * A throwaway PostgreSQL cluster from Debian's packages: initdb in a temporary directory, started
 * on a free port with durability off (tests and benchmarks only), stopped and deleted at the end.
 * Used by the server tests' global setup (`postgres.ts`) and by `npm run bench:admin`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

/** The newest PostgreSQL's bin directory under /usr/lib/postgresql, or null when none is installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  stop(): void;
  /**
   * Restarts the server as an operator would (`pg_ctl stop -m fast`: every session is ended), its
   * port refusing connections for `downMs` in between; resolves when it accepts connections again,
   * with that time (epoch ms). Asynchronous, so the caller's event loop keeps running meanwhile.
   * `onDown` is called once the server has stopped.
   */
  restart(downMs: number, onDown?: () => void): Promise<number>;
}

/** Starts a cluster with `bin`'s initdb and pg_ctl (as the postgres user when run as root). */
export async function startPostgresCluster(
  bin: string,
  options: { maxConnections?: number } = {},
): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });

  const runAsync = promisify(execFile);
  const ctl = (args: string[]) =>
    asRoot
      ? runAsync('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args])
      : runAsync(path.join(bin, 'pg_ctl'), args);

  const port = await freePort();
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const settings = [
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
    ...(options.maxConnections ? [`-c max_connections=${options.maxConnections}`] : []),
  ].join(' ');
  const startArgs = ['-D', dataDir, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', 'start'];
  run('pg_ctl', startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart(downMs, onDown) {
      await ctl(['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      onDown?.();
      await new Promise((r) => setTimeout(r, downMs));
      await ctl(startArgs);
      return Date.now();
    },
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
