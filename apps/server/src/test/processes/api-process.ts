/**
 * An API process for the multi-process test: the real server (configuration from the environment,
 * listening on PORT) with the deterministic engine double instead of the configured engines, so a
 * try-on's cost is known. TEST_ENGINE_DELAY_MS sets the double's delay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfigOrExit } from '../../config.js';
import { buildApp } from '../../app.js';
import { createEngineDouble } from '../engine-double.js';

const config = loadConfigOrExit();
const engine = createEngineDouble({ delayMs: Number(process.env.TEST_ENGINE_DELAY_MS ?? 0) });
const app = await buildApp({
  config,
  engines: { [engine.id]: engine },
  webDistDir: fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-noweb-')),
});
await app.listen({ port: config.port, host: '127.0.0.1' });
console.log(JSON.stringify({ msg: 'listening', port: config.port }));

process.once('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
