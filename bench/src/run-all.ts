/**
 * `npm run bench`: every benchmark in turn, each printing its own figures.
 * Server (sign-in rate, server time per try-on without the engine), the local engine
 * (p50/p95 on the fixture photos), the overhead around the hosted engines, and the upload of a
 * large photo reduced in the browser.
 */
const suites: Array<[string, () => Promise<void>]> = [
  ['server', async () => (await import('./server.js')).runServerBench()],
  ['local engine', async () => (await import('./engine.js')).runEngineBench().then(() => undefined)],
  ['hosted engines', async () => (await import('./hosted.js')).runHostedBench().then(() => undefined)],
  ['upload (photos reduced in the browser)', async () => (await import('./upload.js')).runUploadBench()],
];

let failed = 0;
for (const [name, run] of suites) {
  console.log(`\n=== bench: ${name} ===`);
  const started = performance.now();
  try {
    await run();
  } catch (error) {
    failed += 1;
    console.error(`bench ${name} failed:`, error);
  }
  console.log(`=== ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s ===`);
}
process.exitCode = failed > 0 ? 1 : 0;
