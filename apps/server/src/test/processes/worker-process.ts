/**
 * A queue worker process for the multi-process test: `runWorker` (as `npm run worker`) with the
 * deterministic engine double; TEST_ENGINE_DELAY_MS sets its delay.
 */
import { loadConfigOrExit } from '../../config.js';
import { runWorker } from '../../tryon/worker.js';
import { createEngineDouble } from '../engine-double.js';

const config = loadConfigOrExit();
const double = createEngineDouble({ delayMs: Number(process.env.TEST_ENGINE_DELAY_MS ?? 0) });
// Says when a job reaches the engine, so a test can kill this process in the middle of one.
const engine = {
  ...double,
  tryOn: (input: Parameters<typeof double.tryOn>[0]) => {
    console.log(JSON.stringify({ msg: 'engine call' }));
    return double.tryOn(input);
  },
};
// The worker's own pino logger (LOG_LEVEL), as `npm run worker` has.
const worker = await runWorker(config, { engines: { [engine.id]: engine } });
console.log(JSON.stringify({ msg: 'worker ready' }));

process.once('SIGTERM', () => {
  worker.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
