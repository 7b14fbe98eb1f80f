/**
 * A built server of a spec's own (not the suite's shared one), configured differently: billing
 * through Paddle's stand-in, a hosted engine on its stand-in, a server made busy on purpose. It
 * runs on its own throwaway data with the suite's generous limits, and `stop()` ends it (SIGTERM,
 * SIGKILL after 10 s) and removes its data.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface OwnServer {
  base: string;
  /** What the server wrote to stderr so far (its warnings and errors). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `apps/server/dist/server.js` on `port` with `env` on top, and waits until `/api/config` answers. */
export async function startOwnServer(label: string, port: number, env: Record<string, string>): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `aidressup-e2e-${label}-`));
  const server = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/server.js')], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      FREE_TRIALS_LIMIT: '2',
      NEW_USERS_PER_IP_PER_DAY: '100000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
      RATE_LIMIT_TRYON_PER_MINUTE: '100000',
      ENGINE_LINE_TICKETS_PER_ADDRESS: '1000',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
      ...env,
    },
  });
  let log = '';
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the ${label} server exited (${server.exitCode}): ${log}`);
    const ok = await fetch(`${base}/api/config`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${label} server did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, log: () => log, stop };
}
