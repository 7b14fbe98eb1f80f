import { MESSAGES } from '@aidressup/contract';
import { expectApiError } from '@aidressup/server/testing/api-error';
import { expect, openSignedIn, test, tryOnce, uploadBoth, userBox } from '../fixtures';

// Four real try-ons, on the built-in engine of a machine that may be busy.
test.describe.configure({ timeout: 240_000 });
// The browser logs the refused try-on's HTTP 402 as a console error; nothing else may be logged.
test.use({ allowedConsoleErrors: [/status of 402/] });

test('free trials run out, NO_CREDITS opens the paywall, a demo purchase adds credits, and a paid try-on works', async ({
  page,
}) => {
  await openSignedIn(page);
  const box = userBox(page);
  await uploadBoth(page);

  await tryOnce(page);
  await expect(box.trials).toHaveText('1 / 2');
  await tryOnce(page);
  await expect(box.trials).toHaveText('2 / 2');
  await expect(box.hasFreeTrial).toHaveText('no');
  await expect(box.hasCredits).toHaveText('no');
  await expect(box.segment).toHaveText('trial_exhausted');

  // The test-paywall button shows the trial-exhausted header for this user.
  await page.getByTestId('test-paywall').click();
  await expect(page.getByTestId('paywall').getByRole('heading', { level: 2 })).toHaveText(
    MESSAGES.paywallTrialExhausted,
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('paywall')).toHaveCount(0);

  // Third try-on: refused by the server.
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const res = await refused;
  await expectApiError(res, 402, 'NO_CREDITS');

  const paywall = page.getByTestId('paywall');
  await expect(paywall).toBeVisible();
  await expect(paywall.getByRole('heading', { level: 2 })).toHaveText(MESSAGES.paywallNoCredits);
  await expect(page.getByTestId('error-box')).toContainText(MESSAGES.processFailed);
  await expect(page.getByTestId('error-message')).toHaveText(MESSAGES.noCredits);

  // Buy the default plan (Monthly Pro, 50 credits) through the demo checkout.
  await expect(paywall.getByRole('radio', { name: 'Monthly Pro' })).toBeChecked();
  await paywall.getByRole('button', { name: /Continue to Payment/ }).click();
  const demo = page.getByTestId('demo-checkout');
  await expect(demo).toContainText('no card is charged');
  await expect(demo).toContainText('Monthly Pro');
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/billing/demo/checkout'));
  await demo.getByRole('button', { name: 'Complete demo purchase' }).click();
  expect((await bought).status()).toBe(200);
  await expect(page.getByTestId('purchase-complete')).toContainText('50 credits');
  await expect(box.credits).toHaveText('50');
  await expect(box.hasCredits).toHaveText('yes');
  await expect(box.segment).toHaveText('subscriber');
  // "Start creating": the refused try-on runs by itself, paid with one of the new credits.
  const resumed = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByRole('button', { name: 'Start creating' }).click();
  await expect(page.getByTestId('purchase-complete')).toHaveCount(0);
  expect((await resumed).status()).toBe(200);
  await expect(page.getByTestId('result-image')).toBeVisible();
  await expect(box.credits).toHaveText('49');

  // Another paid try-on uses one credit.
  await tryOnce(page);
  await expect(box.credits).toHaveText('48');
  await expect(box.trials).toHaveText('2 / 2');
});
