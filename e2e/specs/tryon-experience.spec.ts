/**
 * The try-on experience: photos reduced in the browser before upload, progress stages, the
 * before/after slider, "Try another garment", paste, the engine's wording, and the account box
 * never covering a button or link.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import type { Page, Request } from '@playwright/test';
import { MESSAGES, type PublicConfig } from '@aidressup/contract';
import { expect, openSignedIn, PHOTOS, test, tryOnce, uploadBoth } from '../fixtures';

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  body: Buffer;
}

/** The parts of a multipart/form-data request body. */
function multipartParts(request: Request): Part[] {
  const contentType = request.headers()['content-type'] ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const body = request.postDataBuffer();
  if (!boundary || !body) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = chunk.indexOf('\r\n\r\n');
    const headers = chunk.subarray(0, headerEnd).toString('utf8');
    parts.push({
      name: /name="([^"]*)"/.exec(headers)?.[1] ?? '',
      filename: /filename="([^"]*)"/.exec(headers)?.[1] ?? null,
      type: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? null,
      body: chunk.subarray(headerEnd + 4),
    });
    start = next;
  }
  return parts;
}

/** A config with the built-in engine and a hosted one (the server itself runs only the built-in). */
async function withHostedEngine(page: Page) {
  await page.route('**/api/config', async (route) => {
    const res = await route.fetch();
    const config = (await res.json()) as PublicConfig;
    config.engines = [
      { id: 'local', label: 'Built-in engine', kind: 'local', estimateSeconds: { min: 1, max: 5 } },
      { id: 'nano-banana', label: 'Nano Banana (Gemini)', kind: 'hosted', estimateSeconds: { min: 30, max: 60 } },
    ];
    config.defaultEngine = 'local';
    await route.fulfill({ response: res, json: config });
  });
}

test('a large photo is reduced in the browser before upload (longest side 2048, JPEG)', async ({ page }, testInfo) => {
  const large = testInfo.outputPath('large-person.jpg');
  await sharp(PHOTOS.person).resize({ width: 3200, height: 3200 }).jpeg({ quality: 95 }).toFile(large);
  const originalBytes = fs.statSync(large).size;
  expect((await sharp(large).metadata()).width).toBe(3200);

  await openSignedIn(page);
  let posted: Part[] = [];
  await page.route('**/api/process-image', async (route) => {
    posted = multipartParts(route.request());
    await route.continue();
  });
  await page.getByTestId('upload-person-input').setInputFiles(large);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
  await tryOnce(page);

  const person = posted.find((p) => p.name === 'userImage');
  expect(person, 'the person photo was posted').toBeTruthy();
  const meta = await sharp(person!.body).metadata();
  expect(meta.format).toBe('jpeg');
  expect(Math.max(meta.width, meta.height)).toBe(2048);
  expect(person!.type).toBe('image/jpeg');
  expect(person!.body.length).toBeLessThan(originalBytes);
  testInfo.annotations.push({ type: 'upload bytes', description: `${originalBytes} → ${person!.body.length}` });

  // A JPEG that already fits goes up as picked. (Chromium leaves a file read from disk out of the
  // intercepted body, so only its part's headers can be checked here; reduce-plan.test.ts covers the rule.)
  const garment = posted.find((p) => p.name === 'clothingImage');
  expect([garment!.filename, garment!.type]).toEqual(['garment-upper.jpg', 'image/jpeg']);
  // The progress id goes with the form.
  expect(posted.find((p) => p.name === 'progressId')?.body.toString()).toMatch(/^[0-9a-f-]{36}$/);
});

test('progress: the stage the server reports is shown in a polite live region', async ({ page }) => {
  await openSignedIn(page);
  await uploadBoth(page);
  const streamIds: string[] = [];
  await page.route('**/api/tryon-progress/*', async (route) => {
    streamIds.push(new URL(route.request().url()).pathname.split('/').pop()!);
    const event = (stage: string, elapsedMs: number) =>
      `data: ${JSON.stringify({ stage, estimateSeconds: { min: 1, max: 5 }, elapsedMs })}\n\n`;
    await route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: `retry: 600000\n\n${event('queued', 5)}${event('reading', 40)}${event('fitting', 120)}`,
    });
  });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let postedId: string | undefined;
  await page.route('**/api/process-image', async (route) => {
    postedId = multipartParts(route.request())
      .find((p) => p.name === 'progressId')
      ?.body.toString();
    await held;
    await route.continue();
  });
  const done = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();

  const live = page.getByTestId('progress-live');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  // The headline follows the stage the server reports (it starts as 'Initializing AI model...').
  await expect(page.getByTestId('progress-message')).toHaveText('Fitting the garment…');
  await expect(page.getByTestId('progress-stage')).toBeEmpty();
  await expect(page.getByTestId('progress-estimate')).toHaveText('Usually ready in a few seconds.');
  await expect.poll(() => postedId).toBeTruthy();
  expect(streamIds).toContain(postedId);
  release();
  expect((await done).status()).toBe(200);
  await expect(page.getByTestId('result-image')).toBeVisible();
  await expect(page.getByTestId('result-panel')).toContainText(MESSAGES.completed);
});

test('the before/after slider works with the keyboard; "Try another garment" keeps the person photo', async ({
  page,
}) => {
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);

  const compare = page.getByTestId('compare');
  await expect(compare.getByText('Before', { exact: true })).toBeVisible();
  await expect(compare.getByText('After', { exact: true })).toBeVisible();
  const slider = page.getByRole('slider', { name: 'Compare before and after' });
  await expect(slider).toHaveValue('50');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('51');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveValue('49');
  await page.keyboard.press('Home');
  await expect(slider).toHaveValue('0');
  await expect(slider).toHaveAttribute('aria-valuetext', '0% before, 100% after');
  await expect(page.getByTestId('compare-before')).toHaveCSS('clip-path', 'inset(0px 100% 0px 0px)');
  await page.keyboard.press('End');
  await expect(slider).toHaveValue('100');
  await expect(page.getByTestId('compare-before')).toHaveCSS('clip-path', /^inset\(0px 0(px|%) 0px 0px\)$/);

  // The built-in engine's result is labelled as a quick preview.
  await expect(page.getByTestId('preview-badge')).toHaveText('Quick preview');

  const personSrc = await page.getByTestId('upload-person-preview').getAttribute('src');
  await page.getByRole('button', { name: 'Try another garment' }).click();
  await expect(page.getByTestId('result-panel')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('upload-person-preview')).toHaveAttribute('src', personSrc!);
  await expect(page.getByTestId('upload-clothing-preview')).toHaveCount(0);
  await expect(page.getByTestId('upload-clothing-dropzone')).toBeFocused();
  await expect(page.getByTestId('step-indicator')).toHaveAttribute('data-current-step', '2');

  await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.lower);
  await page.getByTestId('category-select').click();
  await page.getByRole('option', { name: /Lower Body/ }).click();
  await tryOnce(page);
  await expect(page.getByTestId('compare')).toBeVisible();
});

test('pasting an image fills the focused card, else the first empty one, through the same checks', async ({ page }) => {
  await openSignedIn(page);
  const paste = async (file: { base64: string; name: string; type: string }) =>
    page.evaluate((f) => {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], f.name, { type: f.type }));
      const target = document.activeElement ?? document.body;
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, file);
  const garment = { base64: fs.readFileSync(PHOTOS.upper).toString('base64'), name: 'image.jpg', type: 'image/jpeg' };
  const person = { base64: fs.readFileSync(PHOTOS.person).toString('base64'), name: 'image.jpg', type: 'image/jpeg' };

  await page.getByTestId('upload-clothing-dropzone').focus();
  await paste(garment);
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
  await expect(page.getByTestId('upload-person-preview')).toHaveCount(0);

  // A file that is not an allowed image shows the card's usual message.
  await page.getByTestId('upload-person-dropzone').focus();
  await paste({ base64: Buffer.from('hello').toString('base64'), name: 'notes.txt', type: 'text/plain' });
  await expect(page.getByTestId('upload-person-error')).toHaveText(MESSAGES.unsupportedFormat);

  // Nothing focused: the first empty card.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await paste(person);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await expect(page.getByTestId('try-with-ai')).toBeEnabled();
});

test('hosted engines keep the spec’s 30-60 seconds; a quick preview points to them', async ({ page }) => {
  await withHostedEngine(page);
  await openSignedIn(page);
  await uploadBoth(page);
  await expect(page.getByTestId('engine-select')).toHaveValue('local');
  await tryOnce(page);
  const pointer = page.getByTestId('hosted-pointer');
  await expect(pointer).toContainText('For a photo-real result, choose Nano Banana (Gemini).');
  await pointer.getByRole('button', { name: 'Use Nano Banana (Gemini)' }).click();
  await expect(page.getByTestId('engine-select')).toHaveValue('nano-banana');

  // The hosted engine is not running in this test server: its answer is stood in for.
  const result = await page.getByTestId('result-image').getAttribute('src');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let api: string | undefined;
  await page.route('**/api/process-image', async (route) => {
    api = multipartParts(route.request())
      .find((p) => p.name === 'api')
      ?.body.toString();
    await held;
    await route.fulfill({ json: { success: true, imageUrl: result, usedFreeTrial: true, creditsRemaining: 0 } });
  });
  await page.getByTestId('try-with-ai').click();
  await expect(page.getByTestId('progress-message')).toHaveText(MESSAGES.initializing);
  await expect(page.getByTestId('progress-estimate')).toHaveText(MESSAGES.processingNote);
  // The route handler reads the request as it arrives: wait for it rather than race it.
  await expect.poll(() => api).toBe('nano-banana');
  release();
  await expect(page.getByTestId('result-image')).toBeVisible();
  await expect(page.getByTestId('preview-badge')).toHaveCount(0);
});

test('the image credits page lists each image’s source, author and licence', async ({ page }) => {
  await openSignedIn(page);
  await page.getByRole('link', { name: 'Image credits' }).click();
  await expect(page).toHaveURL(/\/image-credits$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Image credits');
  await expect(page).toHaveTitle(/Image credits/);
  const main = page.locator('main');
  for (const title of ['Casual to Elegant', 'Style Swap Magic', 'Professional Try-on']) {
    await expect(main.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  await expect(main.getByRole('link', { name: 'The Bagisto project' })).toHaveCount(3);
  await expect(main.getByRole('link', { name: 'MIT License' }).first()).toHaveAttribute(
    'href',
    'https://opensource.org/license/mit',
  );
  // Every garment is from the CC0 clothing dataset (none carries a brand logo).
  const cc0 = main.getByRole('link', { name: /CC0 1\.0/ });
  await expect(cc0).toHaveCount(3);
  for (const link of await cc0.all()) {
    await expect(link).toHaveAttribute('href', 'https://creativecommons.org/publicdomain/zero/1.0/');
  }
  await expect(main).toContainText('Alexey Grigorev and contributors');
  await expect(main).not.toContainText('Solidus');
  // The markdown it was made from is still served.
  expect((await page.request.get('/showcase/ATTRIBUTION.md')).status()).toBe(200);
});
