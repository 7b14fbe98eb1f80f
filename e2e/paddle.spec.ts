/**
 * Paddle Billing, page side, against the real built server started with Paddle configured.
 *
 * The browser never reaches Paddle: its request for Paddle.js is answered with a local stand-in
 * (`stand-ins/paddle-js-stand-in.js`) that records `Initialize` and `Checkout.open` and can fire
 * `checkout.completed`. Credits then come only from a signed `transaction.completed` webhook the
 * test posts to the server, exactly as Paddle would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Route } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures';
import { startOwnServer, type OwnServer } from './own-server';
// Paddle-shaped notifications and Paddle's signing, from the built server.
import { envelope, paddleId, signedHeaders, transactionData } from '@aidressup/paddle-stand-in';

const here = path.dirname(fileURLToPath(import.meta.url));
const PORT = Number(process.env.E2E_PADDLE_PORT ?? 3200);
const BASE = `http://127.0.0.1:${PORT}`;
const PADDLE_JS_URL = 'https://cdn.paddle.com/paddle/v2/paddle.js';
const STAND_IN = fs.readFileSync(path.join(here, 'stand-ins/paddle-js-stand-in.js'), 'utf8');

const SECRET = 'pdl_ntfset_01e2etest_webhook_secret_000';
const TOKEN = 'test_e2e0123456789abcdef012345';
const PRICES = {
  weekly: 'pri_01e2eweekly000000000000000',
  monthly: 'pri_01e2emonthly00000000000000',
  yearly: 'pri_01e2eyearly000000000000000',
  credits_200: 'pri_01e2ecredits20000000000000',
};
const OVERLAY_SETTINGS = { displayMode: 'overlay', theme: 'light', locale: 'en' };

let own: OwnServer | undefined;

test.use({ baseURL: BASE });

test.beforeAll(async () => {
  own = await startOwnServer('paddle', PORT, {
    PADDLE_ENV: 'sandbox',
    PADDLE_CLIENT_TOKEN: TOKEN,
    PADDLE_WEBHOOK_SECRET: SECRET,
    PADDLE_PRICE_WEEKLY: PRICES.weekly,
    PADDLE_PRICE_MONTHLY: PRICES.monthly,
    PADDLE_PRICE_YEARLY: PRICES.yearly,
    PADDLE_PRICE_CREDITS_200: PRICES.credits_200,
  });
  const config = (await (await fetch(`${BASE}/api/config`)).json()) as { billing: { provider: string } };
  expect(config.billing.provider).toBe('paddle');
});

test.afterAll(async () => {
  await own?.stop();
});

interface StandInState {
  environmentCalls: string[];
  initializeCalls: Record<string, unknown>[];
  updateCalls: Record<string, unknown>[];
  openCalls: {
    items: { priceId: string; quantity: number }[];
    customData: { userId: string; planId: string; credits: number };
    settings: unknown;
  }[];
  events: { name: string }[];
  failOpen: boolean;
}
declare global {
  interface Window {
    __paddleStandIn?: { state: StandInState; complete(transactionId?: string): void };
  }
}

/**
 * Serves the stand-in for Paddle.js and refuses every other request to Paddle. `hold` delays
 * the script until it resolves (Paddle.js still loading).
 */
async function serveStandIn(page: Page, hold?: Promise<void>): Promise<{ scriptRequests: () => number }> {
  let requests = 0;
  await page.route(/^https:\/\/([a-z0-9-]+\.)*paddle\.com\//, async (route: Route) => {
    if (route.request().url() !== PADDLE_JS_URL) return route.abort();
    requests += 1;
    if (hold) await hold;
    return route.fulfill({ status: 200, contentType: 'application/javascript; charset=utf-8', body: STAND_IN });
  });
  return { scriptRequests: () => requests };
}

function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

const standIn = (page: Page) => page.evaluate(() => window.__paddleStandIn?.state ?? null);

async function waitForPaddleReady(page: Page) {
  await expect.poll(async () => (await standIn(page))?.initializeCalls.length ?? 0).toBe(1);
}

/** Posts a `transaction.completed` notification signed with the webhook secret, as Paddle does. */
async function postTransactionCompleted(o: { userId: string; plan: keyof typeof PRICES; transactionId: string }) {
  const subscription = o.plan !== 'credits_200';
  const now = new Date();
  const days = { weekly: 7, monthly: 30, yearly: 365, credits_200: 0 }[o.plan];
  const body = JSON.stringify(
    envelope(
      'transaction.completed',
      transactionData({
        id: o.transactionId,
        price: { id: PRICES[o.plan], amount: '999', description: o.plan, interval: subscription ? 'month' : null },
        customData: { userId: o.userId, planId: o.plan, credits: 1 },
        subscriptionId: subscription ? paddleId('sub') : null,
        billingPeriod: subscription
          ? { starts_at: now.toISOString(), ends_at: new Date(now.getTime() + days * 86_400_000).toISOString() }
          : null,
        at: now,
      }),
    ),
  );
  const res = await fetch(`${BASE}/api/webhooks/paddle`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body),
    body,
  });
  expect(res.status).toBe(200);
}

test.describe('Paddle checkout', () => {
  test('initialises Paddle.js, opens the overlay with the exact options and waits for the webhook grant', async ({
    page,
  }) => {
    const alerts = collectAlerts(page);
    const { scriptRequests } = await serveStandIn(page);
    const userPolls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && /\/api\/auth\/user\//.test(r.url())) userPolls.push(r.url());
    });

    const userId = await openSignedIn(page);
    await expect(page.getByTestId('user-credits')).toHaveText('0');
    await page.getByTestId('test-paywall').click();
    await expect(page.getByTestId('paywall')).toBeVisible();
    await waitForPaddleReady(page);

    const initial = await standIn(page);
    expect(scriptRequests()).toBe(1);
    expect(initial!.environmentCalls).toEqual(['sandbox']);
    expect(initial!.initializeCalls).toEqual([{ token: TOKEN, eventCallback: '[function]' }]);

    await page.getByRole('button', { name: /Continue to Payment/ }).click();
    await expect.poll(async () => (await standIn(page))!.openCalls.length).toBe(1);
    const opened = (await standIn(page))!.openCalls[0];
    expect(opened).toEqual({
      items: [{ priceId: PRICES.monthly, quantity: 1 }],
      customData: { userId, planId: 'monthly', credits: 50 },
      settings: OVERLAY_SETTINGS,
    });
    expect(alerts).toEqual([]);

    // Paddle.js reports the payment: the page waits for the server to grant.
    const transactionId = paddleId('txn');
    await page.evaluate((id) => window.__paddleStandIn!.complete(id), transactionId);
    await expect(page.getByTestId('payment-awaiting')).toBeVisible();
    await expect(page.getByText('Payment received — your credits are on their way')).toBeVisible();

    // It keeps asking the server while no webhook has arrived, and shows nothing it was not granted.
    const pollsBefore = userPolls.length;
    await expect.poll(() => userPolls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(pollsBefore + 2);
    await expect(page.getByTestId('payment-awaiting')).toBeVisible();
    await expect(page.getByTestId('user-credits')).toHaveText('0');

    await postTransactionCompleted({ userId, plan: 'monthly', transactionId });

    await expect(page.getByTestId('user-credits')).toHaveText('50');
    await expect(page.getByTestId('user-segment')).toHaveText('subscriber');
    await expect(page.getByTestId('user-has-credits')).toHaveText('yes');
    await expect(page.getByTestId('payment-awaiting')).toBeHidden();
    await expect(page.getByTestId('paywall')).toBeHidden();
    expect(alerts).toEqual([]);
  });

  test('a plan card button opens the checkout for that plan', async ({ page }) => {
    const alerts = collectAlerts(page);
    await serveStandIn(page);
    const userId = await openSignedIn(page);
    await page.getByTestId('test-paywall').click();
    await waitForPaddleReady(page);

    await page.getByTestId('plan-credits_200').getByRole('button', { name: 'Choose 200 Credits' }).click();
    await expect.poll(async () => (await standIn(page))!.openCalls.length).toBe(1);
    expect((await standIn(page))!.openCalls[0]).toEqual({
      items: [{ priceId: PRICES.credits_200, quantity: 1 }],
      customData: { userId, planId: 'credits_200', credits: 200 },
      settings: OVERLAY_SETTINGS,
    });

    const transactionId = paddleId('txn');
    await page.evaluate((id) => window.__paddleStandIn!.complete(id), transactionId);
    await postTransactionCompleted({ userId, plan: 'credits_200', transactionId });
    await expect(page.getByTestId('user-credits')).toHaveText('200');
    await expect(page.getByTestId('user-segment')).toHaveText('customer');
    await expect(page.getByTestId('paywall')).toBeHidden();
    expect(alerts).toEqual([]);
  });

  test('alerts while Paddle.js is still loading, then opens once it is ready', async ({ page }) => {
    const alerts = collectAlerts(page);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { scriptRequests } = await serveStandIn(page, held);
    await openSignedIn(page);
    await page.getByTestId('test-paywall').click();
    await expect.poll(scriptRequests).toBe(1);

    const continueButton = page.getByRole('button', { name: /Continue to Payment/ });
    await continueButton.click();
    await expect.poll(() => alerts).toEqual(['Payment system is loading, please wait...']);

    release();
    await waitForPaddleReady(page);
    await continueButton.click();
    await expect.poll(async () => (await standIn(page))!.openCalls.length).toBe(1);
    expect(alerts).toEqual(['Payment system is loading, please wait...']);
  });

  test('alerts when the checkout cannot open', async ({ page }) => {
    const alerts = collectAlerts(page);
    await serveStandIn(page);
    await openSignedIn(page);
    await page.getByTestId('test-paywall').click();
    await waitForPaddleReady(page);
    await page.evaluate(() => {
      window.__paddleStandIn!.state.failOpen = true;
    });
    await page.getByRole('button', { name: /Continue to Payment/ }).click();
    await expect.poll(() => alerts).toEqual(['Failed to open checkout. Please try again.']);
    expect((await standIn(page))!.openCalls).toEqual([]);
    await expect(page.getByTestId('paywall')).toBeVisible();
  });
});

test.describe('Paddle checkout without a user', () => {
  // The refused sign-in is logged by the browser.
  // (An array option is given as [value, options] to Playwright.)
  test.use({ allowedConsoleErrors: [[/status of 503/, /Authentication failed|sign-in|Sign-in/i], { scope: 'test' }] });

  test('alerts that the user was not found', async ({ page }) => {
    const alerts = collectAlerts(page);
    await serveStandIn(page);
    await page.route('**/api/auth/anonymous', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          code: 'SERVICE_UNAVAILABLE',
          error: 'The service is temporarily unavailable. Please try again shortly.',
        }),
      }),
    );
    await page.goto('/');
    await expect(page.getByTestId('user-info-box')).toContainText('Not signed in');
    await page.getByTestId('test-paywall').click();
    await waitForPaddleReady(page);
    await page.getByRole('button', { name: /Continue to Payment/ }).click();
    await expect.poll(() => alerts).toEqual(['User not found, please refresh the page']);
    expect((await standIn(page))!.openCalls).toEqual([]);
  });
});
