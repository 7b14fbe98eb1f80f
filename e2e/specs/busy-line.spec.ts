/**
 * Busy is a wait, not an error. This spec runs its own built server (not the shared one), made
 * busy on purpose: one engine slot (ENGINE_CONCURRENCY=1), nobody held on the server
 * (ENGINE_QUEUE_LIMIT=0, so every wait is a 503 ENGINE_BUSY with a place and a ticket), and a slow
 * hosted engine — the Gemini stand-in (Google's wire format, never Google) behind a proxy that
 * answers each image request after a delay. Another shopper's try-on, posted through the API,
 * holds the slot while the page tries.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { startGeminiStandIn, type GeminiStandIn } from '@aidressup/server/testing/stand-ins/gemini-stand-in';
import { freePort } from '@aidressup/server/testing/ports';
import { expect, openSignedIn, PHOTOS, test, uploadBoth, userBox } from '../fixtures';
import { startOwnServer, type OwnServer } from '../own-server';

const API_KEY = 'e2e-busy-line-key';
/** How long the slow engine takes per try-on. */
const ENGINE_DELAY_MS = 5_000;

let gemini: GeminiStandIn;
let proxy: http.Server;
let own: OwnServer | undefined;
let base: string;
/** generateContent calls the slow engine has received. */
let engineCalls = 0;

test.describe.configure({ mode: 'serial' });
// The browser logs each 503 answer as a failed resource load: that is the busy answer under test.
test.use({ allowedConsoleErrors: [/status of 503/] });

test.beforeAll(async () => {
  gemini = await startGeminiStandIn({ apiKey: API_KEY, instant: true });
  // The slow engine: every generateContent waits ENGINE_DELAY_MS, then goes to the stand-in.
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const slow = req.method === 'POST' && (req.url ?? '').includes(':generateContent');
      if (slow) engineCalls += 1;
      setTimeout(
        () => {
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
          ) as Record<string, string>;
          fetch(gemini.url + (req.url ?? '/'), {
            method: req.method,
            headers,
            ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
          }).then(
            async (answer) => {
              res.writeHead(answer.status, {
                'content-type': answer.headers.get('content-type') ?? 'application/json',
              });
              res.end(Buffer.from(await answer.arrayBuffer()));
            },
            () => res.destroy(),
          );
        },
        slow ? ENGINE_DELAY_MS : 0,
      );
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  own = await startOwnServer('busy', await freePort(), {
    GEMINI_API_KEY: API_KEY,
    GEMINI_BASE_URL: proxyUrl,
    DEFAULT_ENGINE: 'nano-banana',
    // Busy on purpose: one try-on at a time, and every wait answered with a place and a ticket.
    ENGINE_CONCURRENCY: '1',
    ENGINE_QUEUE_LIMIT: '0',
  });
  base = own.base;
});

test.afterAll(async () => {
  await own?.stop();
  await new Promise((r) => proxy?.close(r));
  await gemini?.close();
});

/** Another shopper, through the API: signs in and starts a try-on that holds the engine's one slot. */
async function anotherShopperHoldsTheEngine(): Promise<{ api: APIRequestContext; done: Promise<number> }> {
  const api = await playwrightRequest.newContext({ baseURL: base });
  const signIn = await api.post('/api/auth/anonymous', {
    data: { deviceId: `busy-line-${Date.now()}-${Math.random().toString(36).slice(2)}` },
  });
  const { user } = (await signIn.json()) as { user: { id: string } };
  const calls = engineCalls;
  const done = api
    .post('/api/process-image', {
      multipart: {
        userImage: { name: 'person.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(PHOTOS.person) },
        clothingImage: { name: 'garment.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(PHOTOS.upper) },
        category: 'upper_body',
        userId: user.id,
      },
      timeout: 60_000,
    })
    .then((r) => r.status());
  // The slot is taken once the engine has the request.
  await expect.poll(() => engineCalls, { timeout: 20_000 }).toBeGreaterThan(calls);
  return { api, done };
}

async function openPage(page: Page): Promise<string> {
  const userId = await openSignedIn(page, `${base}/`);
  await uploadBoth(page);
  return userId;
}

test('the page shows its place in line, waits, and shows the result without a second press', async ({
  page,
}, testInfo) => {
  await openPage(page);
  const posts: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/process-image')) posts.push(r.status());
  });
  const other = await anotherShopperHoldsTheEngine();

  await page.getByTestId('try-with-ai').click();
  const wait = page.getByTestId('line-wait');
  await expect(wait).toBeVisible();
  await expect(page.getByTestId('line-place')).toHaveText(/^You are number 1 — about \d+ s$/);
  await expect(page.getByTestId('line-retry')).toHaveText(/^Checking again in \d+ s$/);
  await expect(wait).toContainText('Nothing is charged until your try-on starts.');
  // Announced politely to screen readers.
  const live = page.getByTestId('line-live');
  await expect(live).toHaveAttribute('role', 'status');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await expect(live).toHaveText(/^You are number 1 — about \d+ s$/);
  await expect(page.getByTestId('leave-line')).toBeVisible();
  // The Try button says the shopper is waiting, not that a look is being created.
  await expect(page.getByTestId('try-with-ai')).toHaveText('Waiting for your turn…');
  expect(posts).toEqual([503]);
  // Nothing charged while waiting.
  await expect(userBox(page).trials).toHaveText('0 / 2');

  // Look at the waiting state on a laptop and on a phone.
  await page.getByTestId('result-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('line-wait-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('result-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('line-wait-390.png') });
  await page.setViewportSize({ width: 1366, height: 900 });

  expect(await other.done).toBe(200);
  // After Retry-After the page posts again on its own, gets its turn and shows the result.
  await expect(page.getByTestId('result-image')).toBeVisible({ timeout: 60_000 });
  expect(posts.at(-1)).toBe(200);
  expect(posts.length).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('line-wait')).toHaveCount(0);
  await expect(userBox(page).trials).toHaveText('1 / 2');
  await other.api.dispose();
});

test('leaving the line stops the waiting and charges nothing', async ({ page }) => {
  // The page's clock is Playwright's: it runs as time does, and the test can run it ahead.
  await page.clock.install();
  // Every try-on the page posts, counted in the page as it calls fetch.
  await page.addInitScript(() => {
    const w = window as unknown as { __tryOnPosts: number };
    w.__tryOnPosts = 0;
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/api/process-image')) w.__tryOnPosts += 1;
      return fetch(input, init);
    };
  });
  const postsInPage = () => page.evaluate(() => (window as unknown as { __tryOnPosts: number }).__tryOnPosts);
  const userId = await openPage(page);
  let posts = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/process-image')) posts += 1;
  });
  const other = await anotherShopperHoldsTheEngine();

  await page.getByTestId('try-with-ai').click();
  await expect(page.getByTestId('line-place')).toHaveText(/^You are number \d+ — about \d+ s$/);
  // Away (waiting to post again): leaving gives the ticket's place up on the server at once.
  const left = page.waitForResponse((r) => r.url().endsWith('/api/tryon-line/leave'));
  await page.getByTestId('leave-line').click();
  const leaveAnswer = await left;
  expect(leaveAnswer.status()).toBe(200);
  expect(await leaveAnswer.json()).toEqual({ success: true, left: true });
  await expect(page.getByTestId('line-wait')).toHaveCount(0);
  const note = page.getByTestId('line-cancelled');
  await expect(note).toHaveText('You left the line. Nothing was charged.');
  await expect(note).toBeFocused();
  await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('try-with-ai')).toBeEnabled();

  expect(await other.done).toBe(200);
  // Long past the Retry-After (the page's timers run 16 s ahead at once): the page did not post again.
  await page.clock.runFor(16_000);
  expect(await postsInPage()).toBe(1);
  expect(posts).toBe(1);
  const res = await page.request.get(`${base}/api/auth/user/${userId}`);
  const { user } = (await res.json()) as { user: { free_trials_used: number; credits: number } };
  expect(user).toMatchObject({ free_trials_used: 0, credits: 0 });
  await expect(userBox(page).trials).toHaveText('0 / 2');
  await other.api.dispose();
});

test('"Make it photo-real" waits in the same line: it posts again with its ticket and gets its turn', async ({
  page,
}, testInfo) => {
  // A quick preview first, on the built-in engine (its own slot, free).
  await openSignedIn(page, `${base}/`);
  await page.getByTestId('engine-select').selectOption('local');
  await uploadBoth(page);
  await page.getByTestId('try-with-ai').click();
  await expect(page.getByTestId('result-image')).toBeVisible({ timeout: 60_000 });
  const button = page.getByTestId('make-photo-real');
  await expect(button).toBeVisible();

  const reruns: { status: number; ticket?: string; sent?: string }[] = [];
  page.on('response', async (r) => {
    if (!/\/api\/tryons\/[^/]+\/rerun$/.test(r.url())) return;
    const sent = (r.request().postDataJSON() as { lineTicket?: string }).lineTicket;
    const body = (await r.json().catch(() => ({}))) as { ticket?: string };
    reruns.push({ status: r.status(), ...(body.ticket ? { ticket: body.ticket } : {}), ...(sent ? { sent } : {}) });
  });
  const other = await anotherShopperHoldsTheEngine();
  await button.click();
  await expect(page.getByTestId('line-wait')).toBeVisible();
  await expect(page.getByTestId('line-place')).toHaveText(/^You are number 1 — about \d+ s$/);
  await expect(page.getByTestId('leave-line')).toBeVisible();
  await page.getByTestId('result-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('photo-real-line-wait.png') });
  // Nothing charged while waiting: only the preview's trial.
  await expect(userBox(page).trials).toHaveText('1 / 2');

  expect(await other.done).toBe(200);
  await expect(page.getByTestId('result-image')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('make-photo-real')).toHaveCount(0);
  await expect.poll(() => reruns.at(-1)?.status).toBe(200);
  // The first answer was busy with a ticket; every later post sent it back.
  expect(reruns[0]).toMatchObject({ status: 503 });
  expect(reruns[0]!.sent).toBeUndefined();
  const ticket = reruns[0]!.ticket;
  expect(ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  for (const later of reruns.slice(1)) expect(later.sent).toBe(ticket);
  await expect(userBox(page).trials).toHaveText('2 / 2');
  await other.api.dispose();
});
