/**
 * Shop widget benchmark (`npm run bench:embed`, which builds first; docs/embed.md).
 *
 * The product (built web app, this process's server on BENCH_EMBED_PORT, default 3410, fresh SQLite)
 * and a test shop page on a second origin (http://localhost:<port + 1>) carrying the two lines of the
 * snippet. In Debian's Chromium (headless), for each run: a fresh browser context (nothing cached,
 * like a shopper's first visit) opens the shop page, clicks “Try it on”, and waits for a ready frame:
 * the garment shown and “Upload a photo” enabled (the embed session opened). Prints the size of
 * /embed.js (gzip) and the click-to-ready times (median, 90th percentile, min, max), cold and warm
 * (a second click in the same page).
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_EMBED_PORT, BENCH_EMBED_RUNS (default 10).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '@aidressup/server/app';
import { loadConfig } from '@aidressup/server/config';
import { memoryMailer, signInByEmail } from '@aidressup/server/testing/operator';
import { repoRoot } from './built-server.js';

const port = Number(process.env.BENCH_EMBED_PORT ?? 3410);
const shopPort = port + 1;
const runs = Number(process.env.BENCH_EMBED_RUNS ?? 10);
const operatorEmail = 'bench.merchants@example.com';

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${sorted[0]} ms, max ${sorted.at(-1)} ms (${values.length} runs)`;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-bench-embed-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAILS: operatorEmail,
  });
  const mailer = memoryMailer();
  const app = await buildApp({ config, mailer, background: false });
  await app.listen({ port, host: '127.0.0.1' });
  const appOrigin = `http://127.0.0.1:${port}`;

  const operator = await signInByEmail(app, mailer, operatorEmail);
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/merchants',
    headers: { cookie: operator.cookie },
    payload: { name: 'Bench Shop', allowedOrigins: [`http://localhost:${shopPort}`], billing: 'merchant', credits: 0 },
  });
  const key = created.json<{ merchant: { publishableKey: string } }>().merchant.publishableKey;

  const garment = fs.readFileSync(path.join(repoRoot, 'e2e/fixtures/garment-upper.jpg'));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench shop</title></head><body>
<button type="button" data-aidressup-garment="/garment.jpg">Try it on</button>
<script src="${appOrigin}/embed.js" data-key="${key}" async></script></body></html>`;
  const shop = http.createServer((req, res) => {
    if (req.url === '/garment.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(garment);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => shop.listen(shopPort, '127.0.0.1', resolve));

  const script = await (await fetch(`${appOrigin}/embed.js`)).text();
  console.log('== Shop widget ==');
  console.log(`/embed.js: ${script.length} bytes, gzip ${gzipSync(script, { level: 9 }).length} bytes (budget 10240)`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const cold: number[] = [];
  const warm: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const tab = await context.newPage();
      await tab.goto(`http://localhost:${shopPort}/`);
      await tab.waitForFunction(() => 'AIDressUp' in window);
      for (const into of [cold, warm]) {
        const started = Date.now();
        await tab.getByRole('button', { name: 'Try it on' }).click();
        const frame = tab.frameLocator('iframe[src*="/embed?"]');
        await frame.getByTestId('embed-garment').waitFor();
        await frame.locator('button:enabled', { hasText: 'Upload a photo' }).waitFor();
        into.push(Date.now() - started);
        await tab.keyboard.press('Escape');
        await tab.getByRole('dialog').waitFor({ state: 'detached' });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await new Promise((resolve) => shop.close(resolve));
    await app.close();
  }
  console.log(`Click to ready frame, first open (nothing cached): ${stats(cold)}`);
  console.log(`Click to ready frame, second open (cached):         ${stats(warm)}`);
}

await main();
