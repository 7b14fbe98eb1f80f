/**
 * Outages say so. This spec runs its own built server on a throwaway Redis (the queue, the worker
 * inside the API) and stops that Redis while the shopper presses Try with AI: the page shows
 * "try again in a moment" (nothing charged) as a notice, not a failure of the photos, and keeps
 * the photos; once Redis is back, the same press succeeds.
 */
import { freePort } from '@aidressup/server/testing/ports';
import { startRedis, type TestRedis } from '@aidressup/server/testing/redis';
import { MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { expect, openSignedIn, test, uploadBoth, userBox } from '../fixtures';
import { startOwnServer, type OwnServer } from '../own-server';

let redis: TestRedis;
let own: OwnServer | undefined;

test.describe.configure({ mode: 'serial' });
// The browser logs the 503 answer as a failed resource load: that is the answer under test.
test.use({ allowedConsoleErrors: [/status of 503/] });

test.beforeAll(async () => {
  redis = await startRedis();
  own = await startOwnServer('outage', await freePort(), { REDIS_URL: redis.url, WORKER_IN_PROCESS: '1' });
});

test.afterAll(async () => {
  await own?.stop();
  await redis?.stop();
});

test('Redis away: the press says "try again in a moment", keeps the photos and charges nothing; back, it succeeds', async ({
  page,
}) => {
  await openSignedIn(page, `${own!.base}/`);
  await expect(userBox(page).trials).toHaveText('0 / 2');
  await uploadBoth(page);
  const panel = page.getByTestId('result-panel');
  const tryButton = page.getByTestId('try-with-ai');

  let tried: Promise<void> | undefined;
  const back = redis.restart(10_000, {
    onDown: () => {
      tried = (async () => {
        // Once the server has seen Redis go (health says the queue is down), the shopper presses.
        await expect
          .poll(async () => (await page.request.get(`${own!.base}/api/health`)).status(), { timeout: 8_000 })
          .toBe(503);
        const answered = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
        await tryButton.click();
        const res = await answered;
        expect(res.status()).toBe(503);
        expect(res.headers()['retry-after']).toBeDefined();
        const box = panel.getByTestId('busy-box');
        await expect(box).toHaveAttribute('data-code', 'SERVICE_UNAVAILABLE');
        await expect(box).toContainText(WEB_MESSAGES.outageTitle);
        await expect(box.getByTestId('error-message')).toHaveText(MESSAGES.tryOnOutage);
        await expect(panel.getByTestId('error-box')).toHaveCount(0);
        // The photos stay; nothing was charged.
        await expect(page.getByTestId('upload-person-preview')).toBeVisible();
        await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
        await expect(userBox(page).trials).toHaveText('0 / 2');
      })();
    },
  });
  await back;
  await tried;

  // Back: health is ok again, and the same photos go through.
  await expect.poll(async () => (await page.request.get(`${own!.base}/api/health`)).status()).toBe(200);
  await tryButton.click();
  await expect(panel).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
  await expect(userBox(page).trials).toHaveText('1 / 2');
});
