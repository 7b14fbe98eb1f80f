/**
 * A throwaway redis-server for the queue tests: started on a free port (the system's pick, so runs
 * beside each other never share one) without persistence, stopped afterwards. With `persistent`,
 * every write goes to an append-only file in a folder of its own (fsync'ed at once), so a restart
 * may keep the data even after SIGKILL. Missing redis-server fails on CI and skips (with a
 * warning) elsewhere (`missing-service.ts`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { reportMissingService } from './missing-service.js';
import { freePort } from './ports.js';

export interface RestartOptions {
  /** How the server goes: SIGTERM (default: it closes every connection) or SIGKILL (a crash). */
  signal?: 'SIGTERM' | 'SIGKILL';
  /**
   * It comes back with its data (a persistent server only: queued jobs, the line, counters); by
   * default empty, as after a crash without persistence.
   */
  keepData?: boolean;
  /** Called once the server is gone (its port refuses connections). */
  onDown?: () => void;
}

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /**
   * Stops the server, leaves its port refusing connections for `downMs`, then starts it again on
   * the same port, empty or with its data (`options`). Resolves when it listens again, with that
   * time (epoch ms).
   */
  restart(downMs: number, options?: RestartOptions): Promise<number>;
  /** Empties every database (FLUSHALL). */
  flush(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER_BIN ?? 'redis-server';
/** redis-cli, beside the server. */
const CLI = BINARY.replace(/redis-server$/, 'redis-cli');

export function redisServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  const ok = probe.status === 0;
  if (!ok) {
    reportMissingService({
      problem: `${BINARY} is not installed: the queue and shared-state tests need it`,
      remedy: "Install Debian's redis-server package (or set REDIS_SERVER_BIN).",
      skipped: 'SKIPPING the Redis tests',
    });
  }
  return ok;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
}

async function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function startRedis(options: { persistent?: boolean } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = options.persistent ? fs.mkdtempSync(path.join(os.tmpdir(), 'aidu-redis-')) : undefined;
  const persistence = dir
    ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
    : ['--save', '', '--appendonly', 'no'];
  const launch = async () => {
    const child = spawn(BINARY, [...persistence, '--port', String(port), '--bind', '127.0.0.1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitForPort(port, child);
    return child;
  };
  let child = await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopServer(child);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
    async flush() {
      const flushed = spawnSync(CLI, ['-p', String(port), 'flushall'], { encoding: 'utf8' });
      if (flushed.status !== 0 || !/OK/.test(flushed.stdout)) throw new Error(`flushall failed: ${flushed.stderr}`);
    },
    async restart(downMs, { signal = 'SIGTERM', keepData = false, onDown } = {}) {
      if (keepData && !dir) throw new Error('only a persistent test Redis keeps its data through a restart');
      await stopServer(child, signal);
      onDown?.();
      // Empty: as after a crash without persistence (its files gone too).
      if (dir && !keepData) for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true });
      await new Promise((r) => setTimeout(r, downMs));
      child = await launch();
      return Date.now();
    },
  };
}
