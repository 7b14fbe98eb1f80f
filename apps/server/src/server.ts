/**
 * Loads the configuration and listens. Building the app is `app.ts`'s job.
 *
 * SIGTERM or SIGINT (`docker stop`, Kubernetes, Ctrl-C) closes gracefully: no new connection or
 * request is taken (503), the try-ons under way get SHUTDOWN_GRACE_MS to finish and are refunded
 * past it (`plugins/tryon.ts`), then the queue, the engines and the database close and the
 * process exits 0. Should closing still hang well past the grace, it exits 1.
 */
import { loadConfigOrExit } from './config.js';
import { buildApp } from './app.js';
import { CUT_CONNECTIONS_AFTER_GRACE_MS } from './plugins/closing.js';

/** Past the grace and the cut of the remaining connections: give up closing and exit 1. */
const GIVE_UP_AFTER_CUT_MS = 10_000;

const config = loadConfigOrExit();

const app = await buildApp({ config });
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  app.log.error(err);
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing the try-ons under way');
    setTimeout(
      () => {
        app.log.error('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      config.shutdownGraceMs + CUT_CONNECTIONS_AFTER_GRACE_MS + GIVE_UP_AFTER_CUT_MS,
    ).unref();
    app.close().then(
      () => {
        app.log.info({ ms: Date.now() - started }, 'shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
