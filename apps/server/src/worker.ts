/**
 * Queue worker (`npm run worker`): with REDIS_URL set, processes queued try-ons with
 * ENGINE_CONCURRENCY jobs at a time (default: the number of cores). Run as many as needed,
 * on any machines that reach the same database, storage and Redis. Logs pino JSON lines with the
 * API's options; a job's lines carry the posting request's id (`reqId`).
 */
import { loadConfigOrExit } from './config.js';
import { createLogger } from './logging.js';
import { runWorker } from './tryon/worker.js';
import { keepAlive } from './worker-alive.js';

const config = loadConfigOrExit();
if (!config.redisUrl) {
  console.error(
    'REDIS_URL is not set: the worker needs a queue. Without REDIS_URL try-ons run inside the API server (npm start).',
  );
  process.exit(1);
}

const log = createLogger(config, config.sessionSecret ? { addressKey: config.sessionSecret } : {});

const worker = await runWorker(config, { log }).catch((err: unknown) => {
  log.fatal({ err }, 'the worker could not start');
  console.error(`The worker could not start: ${(err as Error)?.message ?? String(err)}`);
  process.exit(1);
});
log.info({ concurrency: config.engines.concurrency || 'cores' }, 'try-on worker started');
// For an exec liveness probe (`node apps/server/dist/worker-alive.js`).
const stopKeepingAlive = keepAlive();

// SIGTERM or SIGINT: no new job is taken; the ones under way get SHUTDOWN_GRACE_MS to finish and
// are refunded past it (`runWorker`), then the process exits 0 (1 should closing hang well past it).
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stopKeepingAlive();
    const started = Date.now();
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'stopping: finishing the jobs under way');
    setTimeout(() => {
      log.error('stopping did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 15_000).unref();
    worker.close().then(
      () => {
        log.info({ ms: Date.now() - started }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  });
}
