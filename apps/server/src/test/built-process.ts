/**
 * The built server and worker (`apps/server/dist/server.js`, `worker.js`) started as processes of
 * their own, for the suites that crash, stop or restart them (chaos, graceful shutdown): start one,
 * wait for a condition with its output in the error, wait until it answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Builds the server and what it imports (`tsc -b`, incremental: seconds when nothing changed), so
 * these suites need nothing from `npm run build` and run in `npm run test:unit` like every other test.
 */
export function buildServer(): void {
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/contract', 'packages/engine', 'apps/server'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}

export interface BuiltProcess {
  child: ChildProcess;
  /** The exit code and when the process exited (epoch ms). */
  exited: Promise<{ code: number | null; at: number }>;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
}

/**
 * The environment a test's child process starts from: PATH, HOME, and NODE_PATH when set (on Node
 * 22 and later `tools/test-on-node24.sh` may put SQLite's driver for that Node there), then `env`.
 * Nothing else of the test's own environment leaks into the child.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  if (process.env.NODE_PATH) base.NODE_PATH = process.env.NODE_PATH;
  return { ...base, ...env };
}

/**
 * Starts a built entry point with only `childEnv(env)` as its environment; `detached` puts it in a
 * process group of its own (so a SIGKILL to the group takes it and its worker threads).
 */
export function startBuilt(
  entry: 'server.js' | 'worker.js',
  env: Record<string, string>,
  opts: { detached?: boolean } = {},
): BuiltProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist', entry)], {
    cwd: ROOT,
    env: childEnv(env),
    detached: opts.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  return { child, exited, output: () => out };
}

/** Polls `fn` every 50 ms until it answers something; past `timeoutMs` an error with `output`. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  output?: () => string,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms (${String(last ?? '')})\n${output?.() ?? ''}`);
}

/** Waits (30 s at most, or `timeoutMs`) until the server at `base` answers `probe` with 2xx. */
export async function waitAnswering(
  base: string,
  r: BuiltProcess,
  probe = '/api/health',
  timeoutMs = 30_000,
): Promise<void> {
  await waitFor(
    'server ready',
    async () => ((await fetch(`${base}${probe}`)).ok ? true : undefined),
    timeoutMs,
    r.output,
  );
}
