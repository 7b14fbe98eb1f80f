/**
 * The queue worker's liveness (Kubernetes' exec probe, `deploy/k8s/worker.yaml`):
 * `node apps/server/dist/worker-alive.js` exits 0 when the worker touched WORKER_ALIVE_FILE within
 * the last STALE_AFTER_MS, else 1. The worker (`worker.ts`) touches it every few seconds while
 * its event loop runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER_ALIVE_FILE = path.join(os.tmpdir(), 'aidressup-worker.alive');
const WORKER_ALIVE_EVERY_MS = 5_000;
const STALE_AFTER_MS = 30_000;

/** Touches the file now and every WORKER_ALIVE_EVERY_MS; returns the stop function. */
export function keepAlive(file = WORKER_ALIVE_FILE): () => void {
  const touch = () => {
    fs.promises.writeFile(file, `${new Date().toISOString()}\n`).catch(() => undefined);
  };
  touch();
  const timer = setInterval(touch, WORKER_ALIVE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the file was touched within STALE_AFTER_MS. */
export function isAlive(file = WORKER_ALIVE_FILE, nowMs = Date.now()): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && nowMs - stat.mtimeMs < STALE_AFTER_MS;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!isAlive()) {
    console.error(`the worker has not touched ${WORKER_ALIVE_FILE} for ${STALE_AFTER_MS / 1000} s`);
    process.exit(1);
  }
}
