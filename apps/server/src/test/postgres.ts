/**
 * Vitest global setup for the `server` project: starts a throwaway PostgreSQL cluster in a
 * temporary directory on a free port for the test run, and stops it at the end.
 * Tests get its URL with `inject('postgresUrl')` (null when PostgreSQL is not installed:
 * then the PostgreSQL suites do not run, loudly, unless CI is set, which makes it an error:
 * `missing-service.ts`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { reportMissingService } from './missing-service.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const bin = findBinDir();
  if (!bin) {
    reportMissingService({
      problem: 'PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: the PostgreSQL test suites cannot run',
      remedy: "Install Debian's postgresql package to test both databases.",
      skipped: 'Only SQLite is tested in this run',
    });
    project.provide('postgresUrl', null);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });

  const port = await freePort();
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  run('pg_ctl', [
    '-D',
    dataDir,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    'start',
  ]);
  project.provide('postgresUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);

  return async () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
