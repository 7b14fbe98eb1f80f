import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { expect, openSignedIn, PHOTOS, test, userBox } from '../fixtures';
import { codeFromMail, newestMail, uniqueEmail } from '../mail';
import { demoPurchase } from '../accounts';

/*
 * My photos and several garments in one press, in Chromium against the real server and engine:
 * keep a photo, come back (reload, another device after signing in) and try four garments on it in
 * one press without uploading it; four results, four charges, four gallery items; a refused
 * garment refunded while the others succeed; the paywall before anything is charged; keyboard
 * only at 390 px; Arabic.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const engineGarments = path.join(here, '../../packages/engine/test-fixtures/garment');
/** Four tops the built-in engine dresses. */
const TOPS = [
  PHOTOS.upper,
  path.join(engineGarments, 'tshirt_black.jpg'),
  path.join(engineGarments, 'polo_navy.jpg'),
  path.join(engineGarments, 'tshirt_lightblue_plain.jpg'),
];

/** A browser context of its own (its own cookies: another device). */
async function openDevice(
  browser: Browser,
  opts: { width?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const width = opts.width ?? 1366;
  const context = await browser.newContext({
    viewport: { width, height: width < 768 ? 844 : 900 },
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  await context.addInitScript(() => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  // Checked when the context closes: a console error fails the test.
  context.on('close', () => expect(errors, 'no console errors').toEqual([]));
  return { context, page };
}

/** Email sign-in through the dialog with the mailed code. */
async function signInWithCode(page: Page, email: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByTestId('sign-in-dialog');
  const since = new Date(Date.now() - 1000);
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  const mail = await newestMail(email, { since });
  await dialog.getByLabel('6-digit code').fill(codeFromMail(mail));
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/auth/email/verify'));
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  expect((await verified).status()).toBe(200);
  await expect(dialog.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toHaveCount(0);
}

/** A demo purchase of the default plan (50 credits), then back to the page. */
async function buyCredits(page: Page): Promise<void> {
  await demoPurchase(page);
  await page.getByRole('button', { name: 'Start creating' }).click();
  await expect(page.getByTestId('purchase-complete')).toHaveCount(0);
}

/** Picks the person photo and keeps it; the kept photo is then the one in use. */
async function keepPhoto(page: Page): Promise<void> {
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  const checkbox = page.getByTestId('keep-photo-checkbox');
  await expect(checkbox).not.toBeChecked();
  const kept = page.waitForResponse((r) => r.url().endsWith('/api/photos') && r.request().method() === 'POST');
  await checkbox.check();
  expect((await kept).status()).toBe(200);
  await expect(page.getByTestId('kept-photo-note')).toBeVisible();
  await expect(page.getByTestId('my-photo')).toHaveCount(1);
  await expect(page.getByTestId('my-photo').first()).toHaveAttribute('data-selected', 'true');
}

/** Picks the garments: the first in the clothing card, the others with "Add another garment". */
async function pickGarments(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('upload-clothing-input').setInputFiles(files[0]!);
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
  if (files.length > 1) await page.getByTestId('add-garment-input').setInputFiles(files.slice(1));
  await expect(page.getByTestId('more-garment')).toHaveCount(files.length - 1);
}

/** Presses Try with AI and waits for every try-on of the press; the posts it made. */
async function pressAndWait(page: Page, count: number, press: () => Promise<void>): Promise<Request[]> {
  const posts: Request[] = [];
  const onRequest = (r: Request) => {
    if (r.url().endsWith('/api/process-image') && r.method() === 'POST') posts.push(r);
  };
  page.on('request', onRequest);
  await press();
  const results = page.getByTestId('press-result');
  await expect(results).toHaveCount(count);
  await expect(page.locator('[data-testid="press-result"][data-status="processing"]')).toHaveCount(0, {
    timeout: 120_000,
  });
  page.off('request', onRequest);
  return posts;
}

/**
 * Records the field names of every form the page posts to the try-on (Playwright does not show a
 * multipart body with files), in `window.__tryOnForms`.
 */
async function recordTryOnForms(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __tryOnForms: string[][]; fetch: typeof fetch };
    w.__tryOnForms = [];
    const original = w.fetch.bind(window);
    w.fetch = (input, init) => {
      if (String(input).endsWith('/api/process-image') && init?.body instanceof FormData)
        w.__tryOnForms.push([...init.body.keys()]);
      return original(input, init);
    };
  });
}

function tryOnForms(page: Page): Promise<string[][]> {
  return page.evaluate(() => (window as unknown as { __tryOnForms: string[][] }).__tryOnForms);
}

async function galleryCount(page: Page): Promise<number> {
  const res = await page.request.get('/api/tryons');
  return ((await res.json()) as { items: unknown[] }).items.length;
}

test('keep a photo, find it after a reload and on another device once signed in, and try four garments on it in one press', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('keeper');
  const first = await openDevice(browser);
  await openSignedIn(first.page);
  await keepPhoto(first.page);
  await signInWithCode(first.page, email);
  await buyCredits(first.page);
  // A reload (Try Again): the kept photo is still chosen; nothing is uploaded again.
  await first.page.reload();
  await expect(first.page.getByTestId('my-photo')).toHaveCount(1);
  await expect(first.page.getByTestId('my-photo').first()).toHaveAttribute('data-selected', 'true');
  await expect(first.page.getByTestId('upload-person-preview')).toBeVisible();
  await first.context.close();

  // Another device: signed in, the kept photo is there, one tap away.
  const second = await openDevice(browser);
  const { page } = second;
  await openSignedIn(page);
  await expect(page.getByTestId('my-photos-row')).toHaveCount(0);
  await signInWithCode(page, email);
  const row = page.getByTestId('my-photos-row');
  await expect(row.getByTestId('my-photo')).toHaveCount(1);
  await expect(userBox(page).credits).toHaveText('50');
  await row.getByTestId('my-photo').first().click();
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await expect(page.getByTestId('kept-photo-note')).toBeVisible();
  await pickGarments(page, TOPS);
  // Free trials first, then credits: said before the press.
  await expect(page.getByTestId('press-cost')).toHaveText('4 try-ons: 2 free trials and 2 credits');
  const before = await galleryCount(page);

  await recordTryOnForms(page);
  const posts = await pressAndWait(page, 4, () => page.getByTestId('try-with-ai').click());
  // Four posts, each its own try-on with the kept photo and no upload of it.
  expect(posts).toHaveLength(4);
  const forms = await tryOnForms(page);
  expect(forms).toHaveLength(4);
  for (const fields of forms) {
    expect(fields).toContain('personPhotoId');
    expect(fields).not.toContain('userImage');
  }
  const results = page.getByTestId('press-result');
  await expect(results.and(page.locator('[data-status="success"]'))).toHaveCount(4);
  for (const card of await results.all()) {
    await expect(card.getByTestId('compare')).toBeVisible();
    await expect(card.getByTestId('result-download')).toBeVisible();
    await expect(card.getByTestId('result-share')).toBeVisible();
    await expect(card.getByTestId('result-report')).toBeVisible();
  }
  await expect(page.getByTestId('press-progress')).toHaveText('4 of 4 ready');
  // Four charges (both free trials, two credits) and four gallery items.
  await expect(userBox(page).trials).toHaveText('2 / 2');
  await expect(userBox(page).credits).toHaveText('48');
  expect(await galleryCount(page)).toBe(before + 4);

  // Share one of them from its card: a public link.
  await results.nth(1).getByTestId('result-share').click();
  await expect(page.getByRole('dialog').locator('input[readonly]')).toHaveValue(/\/s\//);
  await page.keyboard.press('Escape');
  // The next four, on the same kept photo, are four credits now.
  await page.getByTestId('press-try-others').click();
  await expect(page.getByTestId('press-results')).toHaveCount(0);
  await pickGarments(page, TOPS);
  await expect(page.getByTestId('press-cost')).toHaveText('4 try-ons: 4 credits');
  await second.context.close();
});

test.describe('a refused garment', () => {
  // The browser logs the refused try-on's HTTP 422 as a console error; nothing else may be logged.
  test.use({ allowedConsoleErrors: [/status of 422/] });

  test('a press where one garment is refused: that one is refunded, the others succeed and are charged', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await openSignedIn(page);
    await buyCredits(page);
    await keepPhoto(page);
    // Free trials first (two), then credits: four try-ons, one of them refused.
    await pickGarments(page, [TOPS[0]!, TOPS[1]!, PHOTOS.worn, TOPS[2]!]);
    await expect(page.getByTestId('press-cost')).toHaveText('4 try-ons: 2 free trials and 2 credits');
    await pressAndWait(page, 4, () => page.getByTestId('try-with-ai').click());
    const results = page.getByTestId('press-result');
    await expect(results.nth(2)).toHaveAttribute('data-status', 'error');
    await expect(results.nth(2).getByTestId('press-error-message')).toContainText('shows the garment being worn');
    await expect(results.nth(2)).toContainText('Nothing was charged for this one.');
    for (const i of [0, 1, 3]) await expect(results.nth(i)).toHaveAttribute('data-status', 'success');
    // Three charged: both free trials and one credit; the refused one given back.
    await expect(userBox(page).trials).toHaveText('2 / 2');
    await expect(userBox(page).credits).toHaveText('49');
    expect(await galleryCount(page)).toBe(3);
  });
});

test('the paywall opens before anything is charged when the balance does not cover the press', async ({ page }) => {
  await openSignedIn(page);
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await pickGarments(page, TOPS);
  await expect(page.getByTestId('press-cost')).toHaveText('4 try-ons: 2 free trials and 2 credits');
  let posted = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/process-image')) posted++;
  });
  await page.getByTestId('try-with-ai').click();
  await expect(page.getByTestId('paywall')).toBeVisible();
  await expect(page.getByTestId('try-notice')).toHaveText(
    'Your free trials and credits do not cover all of these try-ons. Nothing was charged.',
  );
  expect(posted).toBe(0);
  await expect(userBox(page).trials).toHaveText('0 / 2');
});

test('keyboard only, at 390 px: keep the photo, choose it again after a reload, press, delete it on the Account page', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await openDevice(browser, { width: 390 });
  await openSignedIn(page);
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  // The box is reached and ticked from the keyboard.
  const checkbox = page.getByRole('checkbox', { name: 'Keep this photo for my next try-ons' });
  await checkbox.focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('kept-photo-note')).toBeVisible();

  // After a fresh start of the page (nothing chosen), the photo is picked from the row by keyboard.
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  const radio = page.getByRole('radio', { name: /^Kept photo 1, kept on / });
  await expect(radio).not.toBeChecked();
  await radio.focus();
  await page.keyboard.press('Space');
  await expect(radio).toBeChecked();
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await pickGarments(page, TOPS.slice(0, 2));
  await expect(page.getByTestId('press-cost')).toHaveText('2 try-ons: 2 free trials');
  await pressAndWait(page, 2, async () => {
    await page.getByTestId('try-with-ai').focus();
    await page.keyboard.press('Enter');
  });
  // The results heading gets the focus; nothing is wider than the phone.
  await expect(page.getByRole('heading', { name: 'Your results' })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const axe = await new AxeBuilder({ page }).include('#try-on').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // The Account page lists it; Delete, from the keyboard, removes it everywhere.
  await page.goto('/account#my-photos');
  const section = page.getByTestId('account-photos');
  await expect(section.getByTestId('my-photos-count')).toHaveText('1 of 3 kept');
  await section.getByRole('button', { name: 'Delete kept photo 1' }).focus();
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/photos/'));
  await page.keyboard.press('Enter');
  expect((await deleted).status()).toBe(200);
  await expect(section.getByTestId('my-photos-empty')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto('/');
  await expect(page.getByTestId('my-photos-row')).toHaveCount(0);
  await context.close();
});

test('in Arabic: the row, the box, the cost and the results speak Arabic, right to left', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page } = await openDevice(browser, { locale: 'ar' });
  await openSignedIn(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await expect(page.getByRole('checkbox', { name: 'احتفظ بهذه الصورة لتجارب القياس القادمة' })).toBeVisible();
  await page.getByTestId('keep-photo-checkbox').check();
  await expect(page.getByTestId('my-photos-row').getByRole('heading', { name: 'صوري' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^الصورة المحفوظة 1، حُفظت في / })).toBeChecked();
  await pickGarments(page, TOPS.slice(0, 2));
  await expect(page.getByTestId('press-cost')).toHaveText('تجربتا قياس: تجربتان مجانيتان');
  await pressAndWait(page, 2, () => page.getByTestId('try-with-ai').click());
  await expect(page.getByRole('heading', { name: 'نتائجك' })).toBeVisible();
  await expect(page.getByTestId('press-progress')).toHaveText('2 من 2 جاهزة');
  await expect(page.getByTestId('press-result').first().getByTestId('result-share')).toHaveAccessibleName(
    'مشاركة قطعة الملابس 1',
  );
  await context.close();
});
