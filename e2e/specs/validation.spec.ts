import fs from 'node:fs';
import { MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import type { Browser, Page } from '@playwright/test';
import { catalogMessage, expect, openSignedIn, PHOTOS, test } from '../fixtures';

const SHOTS = '/tmp/shots/checks-ui';
const TEXT_FILE = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('A linen shirt, blue jeans.\n') };

/** The two upload cards with a text file on the person card, photographed at 1366 and 390 px in `locale`. */
async function shootUnsupported(browser: Browser, locale: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    const context = await browser.newContext({ locale, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
    });
    await openSignedIn(page);
    await page.getByTestId('upload-person-input').setInputFiles(TEXT_FILE);
    const error = page.getByTestId('upload-person-error');
    await expect(error).toHaveText(catalogMessage(locale === 'ar' ? 'ar' : 'en', 'msg.unsupportedFormat'));
    await error.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.getByTestId('upload-person').screenshot({
      path: `${SHOTS}/unsupported-format-${locale}-${width}.png`,
      style: '.sticky{position:static!important}',
    });
    await context.close();
  }
}

/** Accepts window.alert dialogs and records their messages. */
function collectAlerts(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (d) => {
    if (d.type() === 'alert') messages.push(d.message());
    void d.accept();
  });
  return messages;
}

test.describe('upload validation', () => {
  test('refuses an unsupported format', async ({ page }) => {
    await openSignedIn(page);
    await page
      .getByTestId('upload-person-input')
      .setInputFiles({ name: 'photo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(page.getByTestId('upload-person-error')).toHaveText(MESSAGES.unsupportedFormat);
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
  });

  test('a type that is not allowed, by MIME type or by extension, gets the specification’s message; a renamed PDF is not a photo', async ({
    page,
  }) => {
    await openSignedIn(page);
    const cases = [
      TEXT_FILE,
      { name: 'shirt.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1') },
      // Typed as a JPEG, but its name says text.
      { ...TEXT_FILE, mimeType: 'image/jpeg' },
    ];
    for (const card of ['person', 'clothing'] as const) {
      for (const file of cases) {
        await page.getByTestId(`upload-${card}-input`).setInputFiles(file);
        await expect(page.getByTestId(`upload-${card}-error`), `${card}: ${file.name}`).toHaveText(
          'Unsupported format. Use JPG, PNG or WEBP.',
        );
        await expect(page.getByTestId(`upload-${card}-preview`)).toHaveCount(0);
      }
      // A PDF renamed .jpg claims an allowed type and is not one.
      await page.getByTestId(`upload-${card}-input`).setInputFiles({
        name: 'holiday.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'),
      });
      await expect(page.getByTestId(`upload-${card}-error`)).toHaveText(
        'This file is not a photo we can read. Use JPG, PNG or WEBP.',
      );
    }
  });

  test('the specification’s message on a card, photographed at 1366 and 390 px, in English and in Arabic', async ({
    browser,
  }) => {
    await shootUnsupported(browser, 'en-US');
    await shootUnsupported(browser, 'ar');
  });

  test('a file over 10 MB is not refused for its size before it is known to be a photo: this one is none', async ({
    page,
  }) => {
    // Photos over 10 MB are shrunk in the browser (specs/photo-checks.spec.ts); this file is no picture at all.
    await openSignedIn(page);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    await page
      .getByTestId('upload-clothing-input')
      .setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await expect(page.getByTestId('upload-clothing-error')).toHaveText(MESSAGES.notAPhoto);
  });

  test('says a file that cannot be read as a picture is not a photo (not "try again")', async ({ page }) => {
    await openSignedIn(page);
    await page
      .getByTestId('upload-person-input')
      .setInputFiles({ name: 'broken.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not really a jpeg') });
    await expect(page.getByTestId('upload-person-error')).toHaveText(MESSAGES.notAPhoto);
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
    // A JPEG by its first bytes whose picture does not decode.
    await page.getByTestId('upload-person-input').setInputFiles({
      name: 'cut.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
    });
    await expect(page.getByTestId('upload-person-error')).toHaveText(MESSAGES.notAPhoto);
  });

  test('a valid photo clears the error; replace and remove work', async ({ page }) => {
    await openSignedIn(page);
    await page
      .getByTestId('upload-person-input')
      .setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(page.getByTestId('upload-person-error')).toBeVisible();
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    await expect(page.getByTestId('upload-person-error')).toHaveCount(0);
    const first = await page.getByTestId('upload-person-preview').getAttribute('src');

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Replace person photo' }).click();
    await (await chooser).setFiles(PHOTOS.lower);
    await expect(page.getByTestId('upload-person-preview')).not.toHaveAttribute('src', first ?? '');

    await page.getByRole('button', { name: 'Remove person photo' }).click();
    await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);
    await expect(page.getByTestId('step-indicator')).toHaveAttribute('data-current-step', '1');
  });

  test('the upload card opens the file picker from the keyboard and accepts a dropped file', async ({ page }) => {
    await openSignedIn(page);
    const dropzone = page.getByTestId('upload-person-dropzone');
    await dropzone.focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();

    // Drag and drop onto the clothing card.
    const bytes = (await import('node:fs')).readFileSync(PHOTOS.upper).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], 'shirt.jpg', { type: 'image/jpeg' }));
      return dt;
    }, bytes);
    const target = page.getByTestId('upload-clothing-dropzone');
    await target.dispatchEvent('dragenter', { dataTransfer });
    await target.dispatchEvent('dragover', { dataTransfer });
    await target.dispatchEvent('drop', { dataTransfer });
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    await expect(page.getByTestId('step-indicator')).toHaveAttribute('data-current-step', '3');
  });
});

test.describe('Try with AI messages (the page’s own, no native alert box)', () => {
  test('asks for both photos, and says which one is missing', async ({ page }) => {
    await openSignedIn(page);
    const alerts = collectAlerts(page);
    const notice = page.getByTestId('try-notice');
    // Neither photo.
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(notice).toHaveText(WEB_MESSAGES.uploadBothMissing);
    // The person photo only: the clothing photo is missing.
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(notice).toHaveText(WEB_MESSAGES.uploadClothingMissing);
    // The specification's words come first.
    expect(await notice.textContent()).toMatch(new RegExp(`^${MESSAGES.uploadBothPhotos}`));
    expect(alerts).toEqual([]);
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');
  });

  test('says the person photo is missing when only the clothing photo is there', async ({ page }) => {
    await openSignedIn(page);
    await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(page.getByTestId('try-notice')).toHaveText(WEB_MESSAGES.uploadPersonMissing);
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');
  });

  test('asks to wait while the user is loading', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/auth/anonymous', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByTestId('user-info-box')).toContainText('Starting…');
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    const alerts = collectAlerts(page);
    await page.getByTestId('try-with-ai').click();
    await expect(page.getByTestId('try-notice')).toHaveText(MESSAGES.userLoading);
    await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');
    release();
    await expect(page.getByTestId('user-id')).toHaveText(/^.{8}$/);
    // The notice goes once the user has loaded.
    await expect(page.getByTestId('try-notice')).toHaveCount(0);
    expect(alerts).toEqual([]);
  });
});
