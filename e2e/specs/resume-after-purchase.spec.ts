import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { MESSAGES } from '@aidressup/contract';
import { expectApiError } from '@aidressup/server/testing/api-error';
import { catalogMessage, expect, openSignedIn, test, tryOnce, uploadBoth, userBox } from '../fixtures';

const SHOTS = '/tmp/shots';

// Four real try-ons each, on the built-in engine of a machine that may be busy.
test.describe.configure({ timeout: 240_000 });
// The browser logs the refused try-on's HTTP 402 as a console error; nothing else may be logged.
test.use({ allowedConsoleErrors: [/status of 402/] });

/** Every try-on the page posts. */
function countPosts(page: Page): { count: number } {
  const posts = { count: 0 };
  page.on('request', (r) => {
    if (r.url().endsWith('/api/process-image') && r.method() === 'POST') posts.count++;
  });
  return posts;
}

/** Uses up the two free trials, then presses Try with AI: refused (NO_CREDITS), the paywall opens. */
async function refusedForCredits(page: Page, locale: string) {
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  await tryOnce(page);
  await expect(userBox(page).trials).toHaveText('2 / 2');
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  await expectApiError(await refused, 402, 'NO_CREDITS');
  await expect(page.getByTestId('paywall')).toBeVisible();
  await expect(page.getByTestId('error-box')).toContainText(catalogMessage(locale, 'msg.processFailed'));
}

/** The demo purchase of the default plan from the open paywall, up to its confirmation. */
async function buyWithDemoBilling(page: Page, locale: string) {
  await page
    .getByTestId('paywall')
    .getByRole('button', { name: new RegExp(catalogMessage(locale, 'paywall.continue')) })
    .click();
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/billing/demo/checkout'));
  await page
    .getByTestId('demo-checkout')
    .getByRole('button', { name: catalogMessage(locale, 'paywall.demo.complete') })
    .click();
  expect((await bought).status()).toBe(200);
  await expect(page.getByTestId('purchase-complete')).toBeVisible();
}

/** The result panel as the page shows it, at this width and then the other (its heading below the sticky bar). */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const first = page.viewportSize()?.width ?? 1366;
  for (const width of [first, first === 390 ? 1366 : 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.locator('#result-title').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await expect(page.locator('#result-title')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
}

/**
 * Two frames after what came before: every effect the page would start a try-on from has run, and
 * a post it made is seen by `countPosts` (the browser reports the request before this answers).
 */
async function afterTwoFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

test('a checkout closed without buying runs nothing; after a demo purchase the refused try-on runs by itself, once, with the focus on the result', async ({
  page,
}) => {
  const posts = countPosts(page);
  await refusedForCredits(page, 'en');
  expect(posts.count).toBe(3);

  // Closed without a purchase: nothing runs; the refusal and its "See plans" stay.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('paywall')).toHaveCount(0);
  await afterTwoFrames(page);
  expect(posts.count).toBe(3);
  await expect(page.getByTestId('error-message')).toHaveText(MESSAGES.noCredits);

  // "See plans", a demo purchase, "Start creating": the try-on asked for runs by itself.
  await page.getByRole('button', { name: 'See plans' }).click();
  await buyWithDemoBilling(page, 'en');
  await expect(userBox(page).credits).toHaveText('50');
  // Nothing runs behind the confirmation.
  expect(posts.count).toBe(3);
  const resumed = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByRole('button', { name: 'Start creating' }).click();
  await expect(page.getByTestId('purchase-complete')).toHaveCount(0);
  const res = await resumed;
  expect(res.status(), await res.text()).toBe(200);
  await expect(page.getByTestId('result-image')).toBeVisible();
  await expect(userBox(page).credits).toHaveText('49');

  // The keyboard focus is on the result panel's heading, not the page's body.
  await expect(page.locator('#result-title')).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="result-panel"]') !== null)).toBe(
    true,
  );
  // Once: no second try-on.
  await afterTwoFrames(page);
  expect(posts.count).toBe(4);
  await expect(userBox(page).credits).toHaveText('49');
  await shoot(page, 'resumed-result-en');
});

test.describe('in German, on a phone (390 px)', () => {
  test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } });

  test('the refused try-on resumes after a demo purchase ("Jetzt loslegen"), with the focus on the result', async ({
    page,
  }) => {
    const posts = countPosts(page);
    await refusedForCredits(page, 'de');
    await buyWithDemoBilling(page, 'de');
    const resumed = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
    await page.getByRole('button', { name: catalogMessage('de', 'paywall.done.start') }).click();
    expect((await resumed).status()).toBe(200);
    await expect(page.getByTestId('result-image')).toBeVisible();
    await expect(page.locator('#result-title')).toBeFocused();
    // Below the upload cards on a phone: the page brings the result into view.
    await expect(page.locator('#result-title')).toBeInViewport();
    await afterTwoFrames(page);
    expect(posts.count).toBe(4);
    await shoot(page, 'resumed-result-de');
  });
});
