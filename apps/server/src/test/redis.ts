/**
 * A throwaway redis-server for the queue tests: started on a free port without persistence,
 * stopped afterwards. Missing redis-server fails on CI and skips (with a warning) elsewhere
 * (`missing-service.ts`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { reportMissingService } from './missing-service.js';
import { freePort } from './ports.js';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /**
   * Stops the server (SIGTERM: it closes every connection), leaves its port refusing connections
   * for `downMs`, then starts an empty one on the same port (no persistence: queued jobs and
   * every key are gone, as after a crash). Resolves when it listens again, with that time (epoch ms).
   */
  restart(downMs: number): Promise<number>;
}

const BINARY = process.env.REDIS_SERVER_BIN ?? 'redis-server';

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

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const launch = async () => {
    const child = spawn(BINARY, ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitForPort(port, child);
    return child;
  };
  let child = await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => stopServer(child),
    async restart(downMs) {
      await stopServer(child);
      await new Promise((r) => setTimeout(r, downMs));
      child = await launch();
      return Date.now();
    },
  };
}
