#!/usr/bin/env node
// `npm run dev`: the API from its TypeScript sources, restarted on every change (`tsx watch`, with
// the `source` export condition, so the contract and the engine come from their sources too), and
// the web app on Vite's dev server with hot reload. Vite proxies the server's paths to the API
// (apps/web/vite.config.ts), so open the address Vite prints.
//
// Each child runs in a process group of its own; on Ctrl-C or SIGTERM (or when the parent npm
// process goes away) both groups get SIGTERM, then SIGKILL after a grace period, so no process is
// left behind. When either child ends on its own, the other is stopped too.
//
// Environment: PORT (the API's port, default 3000; Vite proxies to it), WEB_PORT (Vite's port,
// default 5173), NODE_ENV (default `development`) and every variable of the README's
// Configuration table, passed to the API.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const GRACE_MS = 10_000;

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', PORT: process.env.PORT ?? '3000' };

const children = [
  {
    name: 'server',
    command: bin('tsx'),
    args: ['watch', '--clear-screen=false', '--conditions=source', 'apps/server/src/server.ts'],
    cwd: root,
  },
  {
    name: 'web',
    command: bin('vite'),
    args: ['--port', process.env.WEB_PORT ?? '5173', '--strictPort'],
    cwd: path.join(root, 'apps/web'),
  },
].map((spec) => {
  // stdin ignored: a process group in the background that reads the terminal would be stopped.
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ error }));
  });
  return { ...spec, child, exited };
});

/** Sends `signal` to a child's whole process group (tsx's node, Vite's esbuild), if it still runs. */
function signalGroup({ child }, signal) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

let stopping = false;
async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  for (const c of children) signalGroup(c, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const c of children) signalGroup(c, 'SIGKILL');
  }, GRACE_MS);
  await Promise.all(children.map((c) => c.exited));
  clearTimeout(timer);
  // A group's other members (e.g. a server restarting under tsx) may outlive its leader.
  for (const c of children) {
    if (c.child.pid === undefined) continue;
    try {
      process.kill(-c.child.pid, 'SIGKILL');
    } catch {
      // Nothing left in that group.
    }
  }
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(0));
// `npm run dev` runs this under `sh -c`, which does not pass on a SIGTERM sent to npm: when the
// parent goes away, stop as if signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop(0);
}, 500).unref();
for (const c of children) {
  void c.exited.then(({ code, signal, error }) => {
    if (stopping) return;
    const how = error ? `could not start: ${error.message}` : `ended (${signal ?? `exit code ${code}`})`;
    console.error(`dev: ${c.name} ${how}; stopping the other`);
    void stop(code || 1);
  });
}
