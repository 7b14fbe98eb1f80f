/**
 * Web benchmark (`npm run bench:web`, which builds first).
 *
 * 1. Initial JavaScript: the entry script and its modulepreloaded chunks in apps/web/dist/index.html,
 *    plus the largest language's message chunk (`app-<locale>-*.js`: every first page loads one),
 *    gzipped (budget 150 KB); then the CSS and every lazily loaded chunk.
 * 2. Lighthouse 12 (mobile form factor, default simulated throttling) on the built product served by
 *    the real server (`apps/server/dist/server.js`, fresh data folder), in Debian's Chromium:
 *    performance, accessibility and best-practices scores for each page.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_WEB_PORT (default 3300),
 * BENCH_WEB_PAGES (default "/,/terms-of-service").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, startBuiltServer } from './built-server.js';
import { gzipSync } from 'node:zlib';

const dist = path.join(repoRoot, 'apps/web/dist');
const BUDGET_KB = 150;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

function bundleFigures() {
  const indexHtml = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initial = new Set<string>();
  for (const m of indexHtml.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) initial.add(m[1]!);
  for (const m of indexHtml.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) initial.add(m[1]!);
  const css = [...indexHtml.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]!);
  const file = (href: string) => path.join(dist, href.replace(/^\//, ''));

  const allJs = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  // The first page loads its language's messages before it renders: count the largest of them.
  const messageChunks = allJs
    .filter((f) => /^app-[a-zA-Z-]+-[\w-]{8}\.js$/.test(f))
    .map((f) => `/assets/${f}`)
    .sort((a, b) => gz(file(b)) - gz(file(a)));
  if (messageChunks[0]) initial.add(messageChunks[0]);
  const initialRows = [...initial].map((href) => ({ href, raw: fs.statSync(file(href)).size, gzip: gz(file(href)) }));
  const initialGzip = initialRows.reduce((s, r) => s + r.gzip, 0);
  const lazyRows = allJs
    .map((f) => `/assets/${f}`)
    .filter((href) => !initial.has(href))
    .map((href) => ({ href, raw: fs.statSync(file(href)).size, gzip: gz(file(href)) }));

  console.log('== Web bundle (apps/web/dist) ==');
  for (const r of initialRows)
    console.log(`  initial  ${r.href.padEnd(44)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
  for (const href of css)
    console.log(
      `  css      ${href.padEnd(44)} ${kb(fs.statSync(file(href)).size).padStart(10)}  gzip ${kb(gz(file(href))).padStart(9)}`,
    );
  for (const r of lazyRows.sort((a, b) => b.gzip - a.gzip))
    console.log(`  lazy     ${r.href.padEnd(44)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
  console.log(
    `Initial JS gzipped: ${kb(initialGzip)} (budget ${BUDGET_KB} KB: ${initialGzip <= BUDGET_KB * 1024 ? 'within' : 'OVER'})`,
  );
  return initialGzip;
}

async function runLighthouse(urls: string[]) {
  let lighthouse: typeof import('lighthouse').default;
  let chromeLauncher: typeof import('chrome-launcher');
  try {
    lighthouse = (await import('lighthouse')).default;
    chromeLauncher = await import('chrome-launcher');
  } catch (e) {
    console.log(`Lighthouse is not installed here (${(e as Error).message}); only the bundle figures are printed.`);
    return;
  }
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    console.log('\n== Lighthouse 12, mobile (simulated throttling) ==');
    console.log(
      `  ${'page'.padEnd(22)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'best'.padStart(5)}   FCP      LCP      TBT     CLS`,
    );
    for (const url of urls) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!result) throw new Error(`no Lighthouse result for ${url}`);
      const { categories, audits, environment } = result.lhr;
      if (url === urls[0])
        console.log(
          `  (Chromium benchmarkIndex ${environment.benchmarkIndex}; load average ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')})`,
        );
      const score = (id: string) => String(Math.round((categories[id]?.score ?? 0) * 100)).padStart(5);
      const audit = (id: string) => (audits[id]?.displayValue ?? '-').toString().padEnd(8);
      console.log(
        `  ${new URL(url).pathname.padEnd(22)} ${score('performance')} ${score('accessibility')} ${score('best-practices')}   ${audit('first-contentful-paint')} ${audit('largest-contentful-paint')} ${audit('total-blocking-time')} ${audit('cumulative-layout-shift')}`,
      );
      for (const id of ['accessibility', 'best-practices']) {
        const failing = (categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => ref.id);
        if (failing.length) console.log(`      ${id} audits not passed: ${failing.join(', ')}`);
        for (const f of failing) {
          const items = ((audits[f]?.details as { items?: unknown[] } | undefined)?.items ?? []).slice(0, 3);
          for (const item of items) console.log(`        ${f}: ${JSON.stringify(item).slice(0, 240)}`);
        }
      }
    }
  } finally {
    chrome.kill();
  }
}

const port = Number(process.env.BENCH_WEB_PORT ?? 3300);
const pages = (process.env.BENCH_WEB_PAGES ?? '/,/terms-of-service').split(',');

bundleFigures();
const server = await startBuiltServer(port, 'web');
try {
  const entry = fs.readFileSync(path.join(dist, 'index.html'), 'utf8').match(/<script[^>]+src="([^"]+\.js)"/)?.[1];
  if (entry) {
    const res = await fetch(`http://127.0.0.1:${port}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
    await res.arrayBuffer();
    console.log(`Server compression of the entry script: ${res.headers.get('content-encoding') ?? 'none'}`);
  }
  await runLighthouse(pages.map((p) => `http://127.0.0.1:${port}${p}`));
} finally {
  server.kill();
}
