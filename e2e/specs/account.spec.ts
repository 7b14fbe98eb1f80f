import fs from 'node:fs';
import { MESSAGES } from '@aidressup/contract';
import { expect, openSignedIn, test, tryOnce, uploadBoth, userBox } from '../fixtures';
import { codeFromMail, linkFromMail, uniqueEmail } from '../mail';
import { demoPurchase, openDevice, openSignInDialog, randomHex, requestCode, signInWithCode } from '../accounts';

/*
 * Accounts: a device id opens no one's account; email sign-in (code or magic link) carries
 * credits and results to any device; sign-out; delete my data; manage the plan (demo billing).
 * Mail goes to the SMTP stand-in (global-setup.ts); specs read it with mail.ts.
 */

const SHOTS = '/tmp/shots';

test('the same device id without the cookie is a new user who sees nothing of the first, and is told why there are no free try-ons', async ({
  browser,
}) => {
  const deviceId = `fb_same_device_${randomHex(16)}`;
  const first = await openDevice(browser, { deviceId });
  const firstRequest = first.page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
  const firstId = await openSignedIn(first.page);
  expect(((await firstRequest).postDataJSON() as { deviceId: string }).deviceId).toBe(deviceId);
  await expect(first.page.getByTestId('trials-withheld')).toHaveCount(0);
  await uploadBoth(first.page);
  await tryOnce(first.page);
  await tryOnce(first.page);
  await expect(userBox(first.page).trials).toHaveText('2 / 2');

  const second = await openDevice(browser, { deviceId });
  const secondRequest = second.page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
  const secondResponse = second.page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  const secondId = await openSignedIn(second.page);
  expect(((await secondRequest).postDataJSON() as { deviceId: string }).deviceId).toBe(deviceId);
  expect(((await (await secondResponse).json()) as { isNew: boolean }).isNew).toBe(true);
  expect(secondId).not.toBe(firstId);

  // No free try-ons on this device any more, and the page says why instead of a silent 2 / 2.
  await expect(userBox(second.page).trials).toHaveText('2 / 2');
  await expect(second.page.getByTestId('trials-withheld')).toHaveText(MESSAGES.trialsUsedOnDevice);
  await second.page.goto('/account');
  await expect(second.page.getByTestId('account-plan').getByTestId('trials-withheld')).toHaveText(
    MESSAGES.trialsUsedOnDevice,
  );

  // Nothing of the first user: not its gallery, not its user record.
  await second.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Gallery' }).click();
  await expect(second.page.getByTestId('gallery-empty')).toBeVisible();
  expect((await second.page.request.get(`/api/auth/user/${firstId}`)).status()).not.toBe(200);

  // With its cookie, the first browser is still the first user.
  const again = first.page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  await first.page.reload();
  expect(((await (await again).json()) as { user: { id: string } }).user.id).toBe(firstId);
  await expect(userBox(first.page).id).toHaveText(firstId.slice(0, 8));

  await first.done();
  await second.done();
});

test('a demo purchase on one device, then email sign-in on another brings its credits and results there; so does the magic link', async ({
  browser,
}) => {
  const email = uniqueEmail('buyer');

  // Device 1: a try-on and a demo purchase while anonymous, then "Save with email".
  const one = await openDevice(browser);
  await openSignedIn(one.page);
  await uploadBoth(one.page);
  await tryOnce(one.page);
  const resultSrc = await one.page.getByTestId('result-image').getAttribute('src');
  await demoPurchase(one.page);
  const prompt = one.page.getByTestId('save-credits-prompt');
  await expect(prompt).toContainText('Save your credits with your email');
  await prompt.getByRole('button', { name: 'Save with email' }).click();
  await expect(one.page.getByTestId('purchase-complete')).toHaveCount(0);
  await expect(one.page.getByTestId('sign-in-dialog').getByLabel('Email address')).toBeFocused();
  expect(await signInWithCode(one.page, email, { open: false })).toBe(false);
  await one.page.getByRole('button', { name: 'Continue' }).click();
  await expect(one.page.getByTestId('sign-in-dialog')).toHaveCount(0);
  await expect(one.page.getByTestId('nav-account')).toContainText(email);
  await expect(one.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' })).toHaveCount(
    0,
  );

  // Device 2: a new anonymous user, then sign-in with the mailed code.
  const two = await openDevice(browser);
  const twoAnonId = await openSignedIn(two.page);
  await expect(userBox(two.page).credits).toHaveText('0');
  expect(await signInWithCode(two.page, email)).toBe(true);
  // This device had no credits and no results of its own: nothing was added, and the page does not say so.
  await expect(two.page.getByTestId('sign-in-merged')).toHaveText(
    'Your credits and results are saved to your account, on any device where you sign in.',
  );
  await two.page.getByRole('button', { name: 'Continue' }).click();
  await expect(userBox(two.page).credits).toHaveText('50');
  await expect(userBox(two.page).segment).toHaveText('subscriber');
  await expect(userBox(two.page).id).not.toHaveText(twoAnonId.slice(0, 8));
  const cached = JSON.parse((await two.page.evaluate(() => localStorage.getItem('aidressup.user'))) ?? '{}') as {
    email: string;
  };
  expect(cached.email).toBe(email);
  await two.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Gallery' }).click();
  await expect(two.page.getByTestId('gallery-item')).toHaveCount(1);
  await expect(two.page.getByTestId('gallery-item').getByRole('img')).toHaveAttribute('src', resultSrc ?? '');
  await two.page.getByTestId('nav-account').click();
  await expect(two.page.getByTestId('account-email')).toHaveText(email);
  await expect(two.page.getByTestId('account-credits')).toHaveText('50');
  await expect(two.page.getByTestId('account-plan-name')).toContainText('Monthly Pro');
  await expect(two.page.getByTestId('account-plan')).toContainText('Renews on');
  await expect(two.page.getByTestId('account-plan-date')).toHaveText(/^\w+ \d{1,2}, \d{4}$/);
  await expect(two.page.getByTestId('purchase')).toHaveCount(1);
  await expect(two.page.getByTestId('purchase')).toContainText('Monthly Pro');
  await expect(two.page.getByTestId('purchase')).toContainText('50 credits');

  // Device 3 asks for a code; the mail's magic link, opened on device 4, names the account and
  // waits for a press. There, another browser than the one that asked, it says what stays.
  const three = await openDevice(browser);
  await openSignedIn(three.page);
  await openSignInDialog(three.page);
  const mail = await requestCode(three.page, email);
  const link = linkFromMail(mail);
  expect(link.pathname).toBe('/sign-in/verify');
  const four = await openDevice(browser, { allowedConsoleErrors: [/status of 409/] });
  const fourVerifies: number[] = [];
  four.page.on('response', (r) => {
    if (r.url().endsWith('/api/auth/email/verify')) fourVerifies.push(r.status());
  });
  await four.page.goto(link.pathname + link.hash);
  await expect(four.page.getByRole('heading', { level: 1 })).toHaveText('Sign in to AI Dress Up');
  const masked = `${email[0]}•••${email.slice(email.indexOf('@'))}`;
  await expect(four.page.getByText(`Sign in as ${masked}?`)).toBeVisible();
  // Nothing is verified on load, even once this page's own session is there.
  await expect(four.page.getByTestId('verify-sign-in')).toBeEnabled();
  await expect(userBox(four.page).id).toHaveText(/^\S{8}$/);
  expect(fourVerifies).toEqual([]);
  await four.page.getByTestId('verify-sign-in').click();
  await expect(four.page.getByRole('heading', { level: 1 })).toHaveText('Sign in in this browser?');
  await expect(four.page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(four.page.getByTestId('other-browser-note')).toContainText(masked);
  await expect(four.page.getByTestId('other-browser-note')).toContainText(
    'nothing you made in this browser (photos, results, credits) moves into that account',
  );
  expect(fourVerifies).toEqual([409]);
  await four.page.getByTestId('verify-confirm').click();
  await expect(four.page).toHaveURL(/\/account$/);
  expect(fourVerifies).toEqual([409, 200]);
  await expect(four.page.getByTestId('account-notice')).toContainText(`You're signed in as ${email}`);
  await expect(four.page.getByTestId('account-notice')).not.toContainText('were added to your account');
  await expect(four.page.getByTestId('account-email')).toHaveText(email);
  await expect(four.page.getByTestId('account-credits')).toHaveText('50');
  await expect(userBox(four.page).credits).toHaveText('50');

  // In the browser that asked, one press signs in and brings this browser's credits along.
  await three.page.keyboard.press('Escape');
  const bought = await three.page.request.post('/api/billing/demo/checkout', { data: { planId: 'credits_200' } });
  expect(bought.status()).toBe(200);
  await openSignInDialog(three.page);
  const own = linkFromMail(await requestCode(three.page, email));
  await three.page.goto(own.pathname + own.hash);
  await expect(three.page.getByText(`Sign in as ${masked}?`)).toBeVisible();
  const threeVerified = three.page.waitForResponse((r) => r.url().endsWith('/api/auth/email/verify'));
  await three.page.getByTestId('verify-sign-in').click();
  expect((await threeVerified).status()).toBe(200);
  await expect(three.page).toHaveURL(/\/account$/);
  await expect(three.page.getByTestId('account-notice')).toContainText('were added to your account');
  await expect(three.page.getByTestId('account-credits')).toHaveText('250');

  // The link works once: opened again elsewhere it says so and offers a new code for that address.
  const five = await openDevice(browser, {
    allowedConsoleErrors: [/status of 4\d\d/],
  });
  await five.page.goto(link.pathname + link.hash);
  await five.page.getByTestId('verify-sign-in').click();
  await expect(five.page.getByRole('heading', { level: 1 })).toHaveText('This link did not sign you in');
  await expect(five.page.getByRole('alert')).toContainText(/expired|already used|not valid/);
  await expect(five.page).toHaveURL(/\/sign-in\/verify$/);
  await five.page.getByRole('button', { name: 'Request a new code' }).click();
  await expect(five.page.getByTestId('sign-in-dialog').getByLabel('Email address')).toHaveValue(email);

  for (const d of [one, two, three, four, five]) await d.done();
});

test.describe('a refused code', () => {
  // The browser logs the refused verify call (HTTP 400) as a console error.
  test.use({ allowedConsoleErrors: [/status of 400/] });
  test('a wrong code is refused inline and can be corrected; Escape closes the dialog and focus returns', async ({
    page,
  }) => {
    const email = uniqueEmail('typo');
    await openSignedIn(page);
    const opener = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' });
    await openSignInDialog(page);
    const dialog = page.getByTestId('sign-in-dialog');
    await dialog.getByLabel('Email address').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Email me a code' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(MESSAGES.invalidEmail);
    const mail = await requestCode(page, email);
    const code = codeFromMail(mail);
    const wrong = code === '000000' ? '111111' : '000000';
    await dialog.getByLabel('6-digit code').fill(wrong);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(MESSAGES.invalidCode);
    await expect(dialog.getByLabel('6-digit code')).toBeFocused();
    await dialog.getByRole('button', { name: 'Use a different email' }).click();
    await expect(dialog.getByLabel('Email address')).toHaveValue(email);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});

test('sign-out ends the session and the page carries on as a fresh anonymous user', async ({ page }) => {
  const email = uniqueEmail('leaver');
  const firstId = await openSignedIn(page);
  await signInWithCode(page, email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId('nav-account').click();
  await expect(page.getByTestId('account-email')).toHaveText(email);

  const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
  const fresh = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  expect((await loggedOut).status()).toBe(200);
  const res = (await (await fresh).json()) as {
    user: { id: string; email: string | null };
    isNew: boolean;
  };
  expect(res.isNew).toBe(true);
  expect(res.user.email).toBeNull();
  expect(res.user.id).not.toBe(firstId);
  await expect(page.getByTestId('account-notice')).toHaveText(
    'You are signed out. This browser now has a new anonymous session.',
  );
  await expect(page.getByTestId('account-email')).toHaveText('Not signed in');
  await expect(userBox(page).id).toHaveText(res.user.id.slice(0, 8));
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' })).toBeVisible();
  const cached = JSON.parse((await page.evaluate(() => localStorage.getItem('aidressup.user'))) ?? '{}') as {
    id: string;
  };
  expect(cached.id).toBe(res.user.id);

  // After a reload the browser is still the new anonymous user, not the account.
  const again = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  await page.reload();
  expect(((await (await again).json()) as { user: { id: string } }).user.id).toBe(res.user.id);
});

test('delete my data asks first, then deletes the results (their image answers 404) and starts anew', async ({
  page,
}) => {
  const firstId = await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  const src = await page.getByTestId('result-image').getAttribute('src');
  expect(src).toBeTruthy();
  expect((await page.request.get(src!)).status()).toBe(200);

  await page.goto('/account');
  await page.getByTestId('account-delete').getByRole('button', { name: 'Delete my data' }).click();
  const dialog = page.getByTestId('delete-data-dialog');
  await expect(dialog.getByRole('heading', { name: 'Delete your data?' })).toBeVisible();
  await expect(dialog).toContainText('Unspent credits are forfeited');
  await expect(dialog).toContainText('results are deleted');
  await expect(dialog.getByRole('button', { name: 'Keep my data' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Keep my data' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await page.request.get(src!)).status()).toBe(200);

  await page.getByTestId('account-delete').getByRole('button', { name: 'Delete my data' }).click();
  const deleted = page.waitForResponse((r) => r.url().endsWith('/api/account') && r.request().method() === 'DELETE');
  const fresh = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  await page.getByTestId('confirm-delete').click();
  expect((await deleted).status()).toBe(200);
  const res = (await (await fresh).json()) as { user: { id: string } };
  expect(res.user.id).not.toBe(firstId);
  await expect(page.getByTestId('account-notice')).toHaveText(
    'Your data was deleted. This browser now has a new anonymous session.',
  );
  await expect(userBox(page).id).toHaveText(res.user.id.slice(0, 8));
  expect((await page.request.get(src!)).status()).toBe(404);
  await page.goto('/gallery');
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
});

test('Manage subscription opens the demo portal, which cancels the plan', async ({ page }) => {
  await openSignedIn(page);
  await page.goto('/account');
  await expect(page.getByTestId('purchase-history-empty')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage subscription' })).toHaveCount(0);
  await page.goto('/');
  await demoPurchase(page);
  await page.getByRole('button', { name: 'Start creating' }).click();
  await page.goto('/account');
  await expect(page.getByTestId('purchase')).toHaveCount(1);
  await page.getByRole('button', { name: 'Manage subscription' }).click();
  await expect(page).toHaveURL(/\/billing\/demo-portal$/);
  await expect(page.getByRole('note')).toContainText('Demo billing');
  await expect(page.getByTestId('demo-portal-plan-name')).toHaveText('Monthly Pro');
  await expect(page.getByTestId('demo-portal-status')).toHaveText('Active');
  const cancelled = page.waitForResponse((r) => r.url().endsWith('/api/billing/demo/cancel'));
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  expect((await cancelled).status()).toBe(200);
  await expect(page.getByTestId('demo-portal-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('demo-portal-plan')).toContainText('Ends on');
  await expect(page.getByRole('button', { name: 'Cancel plan' })).toHaveCount(0);
  await expect(page.getByRole('status')).toContainText('will not renew');
  await page.getByRole('link', { name: 'Back to your account' }).click();
  await expect(page.getByTestId('account-plan-name')).toContainText('Cancelled');
  await expect(page.getByTestId('account-plan')).toContainText('Ends on');
  await expect(page.getByTestId('account-plan-date')).toHaveText(/^\w+ \d{1,2}, \d{4}$/);
});

test.describe('on a phone (390 px)', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });

  test('the account page has no horizontal scroll and every control is reachable', async ({ page }) => {
    await openSignedIn(page, '/account');
    await expect(page.getByTestId('purchase-history-empty')).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    for (const name of ['Sign In', 'Delete my data']) {
      const control = page.getByRole('main').getByRole('button', { name });
      await control.scrollIntoViewIfNeeded();
      await expect(control).toBeInViewport();
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(40);
    }
    // The mobile menu reaches the account page and Sign In.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('list', { name: 'Mobile menu' });
    await expect(menu.getByRole('link', { name: 'Account' })).toBeVisible();
    await menu.getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByTestId('sign-in-dialog');
    await expect(dialog.getByLabel('Email address')).toBeFocused();
    const dialogOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(dialogOverflow).toBeLessThanOrEqual(0);
  });
});

for (const width of [390, 1366]) {
  test(`screenshots at ${width} px: the sign-in dialog, the account page and the demo portal`, async ({ browser }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const device = await openDevice(browser, { width });
    const { page } = device;
    const email = uniqueEmail(`shots${width}`);
    await openSignedIn(page);
    await demoPurchase(page);
    await page.getByRole('button', { name: 'Start creating' }).click();
    await openSignInDialog(page);
    await page.getByTestId('sign-in-dialog').getByLabel('Email address').fill(email);
    await page.screenshot({ path: `${SHOTS}/sign-in-email-${width}.png` });
    const mail = await requestCode(page, email);
    await page.getByTestId('sign-in-dialog').getByLabel('6-digit code').fill(codeFromMail(mail).slice(0, 3));
    await page.screenshot({ path: `${SHOTS}/sign-in-code-${width}.png` });
    await page.getByTestId('sign-in-dialog').getByLabel('6-digit code').fill(codeFromMail(mail));
    await page.getByTestId('sign-in-dialog').getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('sign-in-dialog').getByRole('heading', { name: "You're signed in" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/sign-in-done-${width}.png` });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.screenshot({ path: `${SHOTS}/nav-signed-in-${width}.png` });
    if (width < 768) await page.getByRole('button', { name: 'Close menu' }).click();
    await page.goto('/account');
    await expect(page.getByTestId('purchase')).toHaveCount(1);
    // Viewport shots (a full-page shot repeats the sticky nav bar and the floating user box mid-page).
    await page.screenshot({ path: `${SHOTS}/account-${width}.png` });
    await page.getByTestId('account-delete').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/account-bottom-${width}.png` });
    await page.getByTestId('account-delete').getByRole('button', { name: 'Delete my data' }).click();
    await expect(page.getByTestId('delete-data-dialog')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/delete-dialog-${width}.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Manage subscription' }).click();
    await expect(page.getByTestId('demo-portal-plan-name')).toHaveText('Monthly Pro');
    await page.screenshot({ path: `${SHOTS}/demo-portal-${width}.png` });
    await device.done();
  });
}
