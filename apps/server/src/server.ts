/** Loads the configuration and listens. Building the app is `app.ts`'s job. */
import { loadConfigOrExit } from './config.js';
import { buildApp } from './app.js';

const config = loadConfigOrExit();

const app = await buildApp({ config });
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  app.log.error(err);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: shutting down`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
