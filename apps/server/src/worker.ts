/**
 * Queue worker (`npm run worker`): with REDIS_URL set, processes queued try-ons with
 * ENGINE_CONCURRENCY jobs at a time (default: the number of cores). Run as many as needed,
 * on any machines that reach the same database, storage and Redis. Logs pino JSON lines with the
 * API's options; a job's lines carry the posting request's id (`reqId`).
 */
import { loadConfigOrExit } from './config.js';
import { createLogger } from './logging.js';
import { runWorker } from './tryon/worker.js';

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

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing the jobs under way');
    worker.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
