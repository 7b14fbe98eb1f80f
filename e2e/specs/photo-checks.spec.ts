/**
 * Photos checked before anything is charged, big photos shrunk in the browser, and a page that
 * never loses the shopper's place: Try Again keeps the photos, the result is scrolled into view
 * with the focus on its heading, no native alert box, progress headlines that follow the stage.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { MESSAGES, UserSchema, WEB_MESSAGES } from '@aidressup/contract';
import { expect, openSignedIn, PHOTOS, test, tryOnce, uploadBoth } from '../fixtures';
import { codeFromMail, newestMail, uniqueEmail } from '../mail';

/** The first bytes of a PDF, named and typed as a JPEG (as a phone's file picker may hand it over). */
const RENAMED_PDF = {
  name: 'holiday.jpg',
  mimeType: 'image/jpeg',
  buffer: Buffer.from(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n',
    'latin1',
  ),
};

async function freeTrialsUsed(page: Page, userId: string): Promise<number> {
  const res = await page.request.get(`/api/auth/user/${userId}`);
  expect(res.status()).toBe(200);
  return UserSchema.parse(((await res.json()) as { user: unknown }).user).free_trials_used;
}

/** Records every native dialog (none should open) and every try-on request. */
function watch(page: Page): { dialogs: string[]; tryOns: number } {
  const seen = { dialogs: [] as string[], tryOns: 0 };
  page.on('dialog', (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url().endsWith('/api/process-image')) seen.tryOns++;
  });
  return seen;
}

/** The fixture person photo, enlarged and sprinkled with noise, as an uncompressed PNG of about 24 MB. */
async function hugePersonPng(): Promise<Buffer> {
  const width = 2560;
  const height = 3200;
  const { data } = await sharp(PHOTOS.person)
    .resize(width, height, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((seed >> 16) % 25) - 12));
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

test.describe('photo checks before charging', () => {
  test('a tiny photo and a renamed PDF are refused with their messages, in the page and on the server, and nothing is charged', async ({
    page,
  }, testInfo) => {
    const seen = watch(page);
    const userId = await openSignedIn(page);

    const tiny = await sharp({ create: { width: 40, height: 53, channels: 3, background: '#c08060' } })
      .jpeg()
      .toBuffer();
    await page
      .getByTestId('upload-person-input')
      .setInputFiles({ name: 'tiny.jpg', mimeType: 'image/jpeg', buffer: tiny });
    await expect(page.getByTestId('upload-person-error')).toHaveText(MESSAGES.personPhotoTooSmall);
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);

    await page.getByTestId('upload-clothing-input').setInputFiles(RENAMED_PDF);
    await expect(page.getByTestId('upload-clothing-error')).toHaveText(MESSAGES.notAPhoto);
    await expect(page.getByTestId('upload-clothing-preview')).toHaveCount(0);
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.getByTestId('upload-person').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`refusals-${width}.png`) });
    }

    // The server makes the same checks, whatever sends the photos, before any trial is spent.
    const garment = fs.readFileSync(PHOTOS.upper);
    const post = (userImage: { name: string; mimeType: string; buffer: Buffer }) =>
      page.request.post('/api/process-image', {
        multipart: {
          userImage,
          clothingImage: { name: 'shirt.jpg', mimeType: 'image/jpeg', buffer: garment },
          category: 'upper_body',
          userId,
        },
      });
    const tinyRes = await post({ name: 'tiny.jpg', mimeType: 'image/jpeg', buffer: tiny });
    expect([tinyRes.status(), await tinyRes.json()]).toEqual([
      422,
      { success: false, code: 'IMAGE_TOO_SMALL', error: MESSAGES.personPhotoTooSmall, field: 'userImage' },
    ]);
    const pdfRes = await post(RENAMED_PDF);
    expect([pdfRes.status(), await pdfRes.json()]).toEqual([
      415,
      { success: false, code: 'UNSUPPORTED_FORMAT', error: MESSAGES.notAPhoto, field: 'userImage' },
    ]);
    // A type that is not allowed: the specification's message.
    const textRes = await post({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('a linen shirt\n') });
    expect([textRes.status(), await textRes.json()]).toEqual([
      415,
      { success: false, code: 'UNSUPPORTED_FORMAT', error: MESSAGES.unsupportedFormat, field: 'userImage' },
    ]);

    expect(seen.tryOns).toBe(0);
    expect(await freeTrialsUsed(page, userId)).toBe(0);
    expect(seen.dialogs).toEqual([]);
  });

  test('a 24 MB photo is shrunk in the browser and accepted; what is sent is under 10 MB', async ({ page }) => {
    const huge = await hugePersonPng();
    expect(huge.length).toBeGreaterThan(24 * 1000 * 1000);
    await openSignedIn(page);
    await page
      .getByTestId('upload-person-input')
      .setInputFiles({ name: 'phone.png', mimeType: 'image/png', buffer: huge });
    await expect(page.getByTestId('upload-person-preview')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('upload-person-error')).toHaveCount(0);
    await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/process-image'));
    await tryOnce(page);
    const size = (await (await sent).sizes()).requestBodySize;
    expect(size).toBeLessThan(10 * 1024 * 1024);
    // Reduced to at most 2048 px and re-encoded as JPEG, not sent at 24 MB.
    expect(size).toBeLessThan(huge.length / 3);
  });
});

test.describe('studio photos', () => {
  // The browser logs the refusal's HTTP status (422) as a console error.
  test.use({ allowedConsoleErrors: [/status of 422/] });

  test('a studio photo of a garment worn by a model: the built-in engine says what photo to use instead, and charges nothing', async ({
    page,
  }, testInfo) => {
    const userId = await openSignedIn(page);
    // A store's product photo of a model wearing a blouse (openly licensed, packages/engine/test-fixtures/LICENSES.md).
    const studio = fileURLToPath(
      new URL('../../packages/engine/test-fixtures/person/woman_blouse_skirt.jpg', import.meta.url),
    );
    await uploadBoth(page, studio);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
    await page.getByTestId('try-with-ai').click();
    expect((await answer).status()).toBe(422);
    await expect(page.getByTestId('error-message')).toHaveText(MESSAGES.garmentWorn);
    await expect(page.getByRole('heading', { name: 'Your result', exact: true })).toBeFocused();
    expect(await freeTrialsUsed(page, userId)).toBe(0);
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page
        .getByRole('heading', { name: 'Your result', exact: true })
        .evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      await page.screenshot({ path: testInfo.outputPath(`studio-refusal-${width}.png`) });
    }
  });
});

test.describe('never lose the place', () => {
  test('Try Again reloads the page and the photos survive it; change one and go again', async ({ page }) => {
    await openSignedIn(page);
    await uploadBoth(page);
    await tryOnce(page);

    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await reloaded;
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    await expect(page.getByTestId('step-indicator')).toHaveAttribute('data-current-step', '3');
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');

    // Change only the garment and go again.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /Replace clothing photo/ }).click();
    await (await chooser).setFiles(PHOTOS.upper);
    await tryOnce(page);
  });

  test('after a result on a phone, it is scrolled into view with the focus on its heading', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSignedIn(page);
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    // Picked from the keyboard: the drop zone gives way to the preview, and the focus stays on the
    // card (its Replace button) instead of falling back to the top of the page.
    await page.getByTestId('upload-clothing-dropzone').focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(PHOTOS.upper);
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    await expect(page.getByRole('button', { name: /Replace clothing photo/ })).toBeFocused();
    await tryOnce(page);
    const heading = page.getByRole('heading', { name: 'Your result', exact: true });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(page.getByTestId('result-image')).toBeInViewport({ ratio: 0.3 });
    await page.screenshot({ path: testInfo.outputPath('result-390.png') });
    await page.setViewportSize({ width: 1366, height: 900 });
    await heading.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('result-1366.png') });
  });

  test('Try with AI without photos shows the page’s own message, never a native alert', async ({ page }) => {
    const seen = watch(page);
    await openSignedIn(page);
    // The button is aria-disabled (still focusable and pressable), as the specification's alert needs.
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(page.getByTestId('try-notice')).toHaveText(WEB_MESSAGES.uploadBothMissing);
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    // The button is aria-disabled (still focusable and pressable), as the specification's alert needs.
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(page.getByTestId('try-notice')).toHaveText(WEB_MESSAGES.uploadClothingMissing);
    // Once both photos are there, the notice goes.
    await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
    await expect(page.getByTestId('try-notice')).toHaveCount(0);
    expect(seen.dialogs).toEqual([]);
    expect(seen.tryOns).toBe(0);
  });

  test('the progress headline follows the stages instead of staying “Initializing AI model...”', async ({ page }) => {
    await openSignedIn(page);
    await uploadBoth(page);
    await page.evaluate((last) => {
      const w = window as unknown as { __headlines: string[] };
      w.__headlines = [];
      let shownLast: () => void = () => undefined;
      const lastShown = new Promise<void>((r) => (shownLast = r));
      const record = () => {
        const text = document.querySelector('[data-testid="progress-message"]')?.textContent ?? '';
        if (text && w.__headlines.at(-1) !== text) w.__headlines.push(text);
        if (text === last) shownLast();
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
      // Hold the answer in the page after the server gave it until the last stage streamed
      // meanwhile is shown (or 10 s have passed: then the check below fails), so that every
      // stage the stream brought is seen before the result replaces them.
      const fetch = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const res = await fetch(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.endsWith('/api/process-image'))
          await Promise.race([lastShown, new Promise((r) => setTimeout(r, 10_000))]);
        return res;
      };
    }, 'Done. Loading your result…');
    await page.getByTestId('try-with-ai').click();
    await expect(page.getByTestId('result-image')).toBeVisible();
    const headlines = await page.evaluate(() => (window as unknown as { __headlines: string[] }).__headlines);
    expect(headlines[0]).toBe(MESSAGES.initializing);
    expect(headlines.length).toBeGreaterThan(1);
    expect(headlines).toContain('Done. Loading your result…');
  });
});

test('after deleting a gallery result on a phone, the focus goes to the next one, in view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  await page.getByTestId('try-another-garment').click();
  await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
  await tryOnce(page);

  await page.goto('/gallery');
  const items = page.getByTestId('gallery-item');
  await expect(items).toHaveCount(2);
  const secondId = await items.nth(1).getAttribute('data-item-id');
  // Scrolled to the bottom of the page, then the first result deleted from the keyboard.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await items
    .first()
    .getByRole('button', { name: /^Delete/ })
    .focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('delete-dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(items).toHaveCount(1);
  const next = page.locator(`[data-testid="gallery-item"][data-item-id="${secondId}"]`);
  await expect(next).toBeFocused();
  await expect(next).toBeInViewport();
});

test.describe('photos kept over a reload, for the session only', () => {
  test('not after the uploads’ 30-minute window, nor in a new tab (a new browser session)', async ({
    page,
    context,
  }) => {
    await openSignedIn(page);
    await uploadBoth(page);
    // Another tab is another session: nothing is restored there, and what was kept is forgotten.
    const other = await context.newPage();
    await other.goto('/');
    await expect(other.getByTestId('upload-person-dropzone')).toBeVisible();
    await expect(other.getByTestId('upload-person-preview')).toHaveCount(0);
    await other.close();
    await page.reload();
    await expect(page.getByTestId('upload-person-dropzone')).toBeVisible();
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);

    // Kept again, then 31 minutes pass: gone after the next reload.
    await uploadBoth(page);
    await page.reload();
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    await page.clock.setFixedTime(Date.now() + 31 * 60_000);
    await page.reload();
    await expect(page.getByTestId('upload-clothing-dropzone')).toBeVisible();
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
    await expect(page.getByTestId('upload-clothing-preview')).toHaveCount(0);
  });

  test('signing out forgets them', async ({ page }) => {
    const email = uniqueEmail('photos');
    await openSignedIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByTestId('sign-in-dialog');
    const since = new Date(Date.now() - 1000);
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByRole('button', { name: 'Email me a code' }).click();
    await dialog.getByLabel('6-digit code').fill(codeFromMail(await newestMail(email, { since })));
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog.getByRole('heading', { name: "You're signed in" })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();

    await uploadBoth(page);
    await page.reload();
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    await page.getByTestId('nav-account').click();
    const fresh = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await fresh;
    await page.goto('/');
    await expect(page.getByTestId('upload-person-dropzone')).toBeVisible();
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('upload-person-dropzone')).toBeVisible();
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
  });
});
