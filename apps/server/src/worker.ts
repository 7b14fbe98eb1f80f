/**
 * Queue worker (`npm run worker`): with REDIS_URL set, processes queued try-ons with
 * ENGINE_CONCURRENCY jobs at a time (default: the number of cores). Run as many as needed,
 * on any machines that reach the same database, storage and Redis.
 */
import { loadConfigOrExit } from './config.js';
import { runWorker } from './queue/worker-main.js';

const config = loadConfigOrExit();
if (!config.redisUrl) {
  console.error('REDIS_URL is not set: the worker needs a queue. Without REDIS_URL try-ons run inside the API server (npm start).');
  process.exit(1);
}

const log = {
  warn: (obj: object, msg: string) => console.warn(JSON.stringify({ level: 'warn', msg, ...serialise(obj) })),
  info: (obj: object, msg: string) => console.log(JSON.stringify({ level: 'info', msg, ...obj })),
};
function serialise(obj: object): object {
  const out: Record<string, unknown> = { ...obj };
  if (out.err instanceof Error) out.err = out.err.message;
  return out;
}

const worker = await runWorker(config, { log }).catch((err: unknown) => {
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
