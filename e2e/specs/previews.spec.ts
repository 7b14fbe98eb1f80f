/**
 * Quick previews and "Make it photo-real", in Chromium on the built product:
 * - with the built-in engine only (the suite's server): the preview label and its one-line
 *   explanation on the result, in My Gallery and on the share page; Shoes & Accessories not offered;
 *   no photo-real button (no hosted engine);
 * - on a server of its own with Gemini pointed at its stand-in (a local HTTP server speaking the
 *   Gemini API's wire format) and the built-in engine as the default: Shoes & Accessories offered
 *   for Gemini only, and the result's "Make it photo-real" button producing a new, hosted result
 *   that carries no preview label.
 * The result card is photographed at 1366 and 390 px into /tmp/shots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { MESSAGES } from '@aidressup/contract';
import { startGeminiStandIn, type GeminiStandIn } from '@aidressup/server/testing/stand-ins/gemini-stand-in';
import { catalogMessage, expect, openSignedIn, PHOTOS, test, tryOnce, uploadBoth } from '../fixtures';
import { startOwnServer, type OwnServer } from '../own-server';

const SHOTS = '/tmp/shots';
const PREVIEW_TEXT = 'Made by the built-in engine: a fast sketch of the fit, not a photo-real picture.';
const GALLERY_PREVIEW_TEXT =
  'A quick preview: a fast sketch of the fit from the built-in engine, not a photo-real picture.';

async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${label}`,
  ).toEqual([]);
}

/** The category picker's options, by their visible names. */
async function categoryOptions(page: Page): Promise<string[]> {
  await page.getByTestId('category-select').click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = (await options.allInnerTexts()).map((text) => text.split('\n')[0]!.trim());
  await page.keyboard.press('Escape');
  return names;
}

/** The session user's free trials used, as the server counts them. */
async function trialsUsed(page: Page, userId: string): Promise<number> {
  const res = await page.request.get(`/api/auth/user/${userId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { user: { free_trials_used: number } }).user.free_trials_used;
}

/**
 * Chooses the worn garment (a person photo) with the person photo, and Full Outfit, and presses Try
 * with AI: refused as worn.
 */
async function refusedAsWorn(page: Page, locale = 'en') {
  await uploadBoth(page, PHOTOS.worn);
  const fullOutfit = catalogMessage(locale, 'common.category.dresses');
  await page.getByTestId('category-select').click();
  await page.getByRole('option', { name: new RegExp(fullOutfit) }).click();
  await expect(page.getByTestId('category-select')).toContainText(fullOutfit);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(422);
  return res;
}

async function shootResult(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const panel = page.getByTestId('result-panel');
    await panel.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The page's sticky bar would cover the top of the card in an element screenshot.
    await panel.screenshot({
      path: path.join(SHOTS, `${name}-${width}.png`),
      style: '.sticky{position:static!important}',
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.describe('with the built-in engine only', () => {
  test('a preview is labelled and explained on the result, in My Gallery and on the share page', async ({
    page,
    browser,
  }) => {
    await openSignedIn(page);
    // Shoes & Accessories: only engines that can dress them offer it; this server has the built-in one.
    expect(await categoryOptions(page)).toEqual(['Upper Body', 'Lower Body', 'Full Outfit']);
    await expect(page.getByTestId('engine-choice')).toHaveCount(0);

    await uploadBoth(page);
    await tryOnce(page);
    const note = page.getByTestId('preview-note');
    await expect(note.getByTestId('preview-badge')).toHaveText('Quick preview');
    await expect(note).toContainText(PREVIEW_TEXT);
    // No hosted engine: no way to a photo-real version is offered.
    await expect(page.getByTestId('make-photo-real')).toHaveCount(0);
    await expect(page.getByTestId('hosted-pointer')).toHaveCount(0);
    await shootResult(page, 'preview-local-only');

    await page.getByRole('link', { name: 'My Gallery' }).click();
    const item = page.getByTestId('gallery-item').first();
    const preview = item.getByTestId('gallery-item-preview');
    await expect(preview).toContainText('Quick preview');
    await expect(preview).toContainText(GALLERY_PREVIEW_TEXT);
    await expect(item.getByTestId('gallery-make-photo-real')).toHaveCount(0);

    await item.getByRole('button', { name: /^Share/ }).click();
    const field = page.getByRole('dialog', { name: 'Share this result' }).getByRole('textbox', { name: 'Share link' });
    await expect(field).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
    const url = await field.inputValue();
    const guest = await browser.newPage();
    try {
      await guest.goto(url);
      const shared = guest.getByTestId('share-preview');
      await expect(shared).toContainText('Quick preview');
      await expect(shared).toContainText(PREVIEW_TEXT);
    } finally {
      await guest.close();
    }
  });
});

test.describe('with Gemini (its stand-in) configured besides the built-in default', () => {
  const GEMINI_KEY = 'AIza-e2e-previews-key-0001112223';
  const PORT = Number(process.env.E2E_PREVIEWS_PORT ?? 3210);
  const BASE = `http://127.0.0.1:${PORT}`;
  let gemini: GeminiStandIn;
  let own: OwnServer | undefined;

  test.use({ baseURL: BASE });

  test.beforeAll(async () => {
    gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY });
    own = await startOwnServer('previews', PORT, {
      GEMINI_API_KEY: GEMINI_KEY,
      GEMINI_BASE_URL: gemini.url,
      DEFAULT_ENGINE: 'local',
    });
  });

  test.afterAll(async () => {
    await own?.stop();
    await gemini?.close();
  });

  test('Shoes & Accessories follow the engine, and "Make it photo-real" makes a new hosted result', async ({
    page,
  }) => {
    await openSignedIn(page);
    const engine = page.getByTestId('engine-select');
    await expect(engine).toHaveValue('local');
    expect(await categoryOptions(page)).toEqual(['Upper Body', 'Lower Body', 'Full Outfit']);
    await engine.selectOption('nano-banana');
    expect(await categoryOptions(page)).toEqual(['Upper Body', 'Lower Body', 'Full Outfit', 'Shoes & Accessories']);
    // Chosen for Gemini, then back to the built-in engine: the picker falls back to a clothing category.
    await page.getByTestId('category-select').click();
    await page.getByRole('option', { name: /Shoes & Accessories/ }).click();
    await expect(page.getByTestId('category-select')).toContainText('Shoes & Accessories');
    await engine.selectOption('local');
    await expect(page.getByTestId('category-select')).toContainText('Upper Body');

    await uploadBoth(page);
    await tryOnce(page);
    const first = await page.getByTestId('result-image').getAttribute('src');
    await expect(page.getByTestId('preview-badge')).toHaveText('Quick preview');
    const button = page.getByTestId('make-photo-real');
    await expect(button).toHaveText('Make it photo-real with Nano Banana (Gemini)');
    await expect(page.getByTestId('photo-real')).toContainText('it uses one try-on');
    await shootResult(page, 'preview-photo-real');
    await expectNoSeriousViolations(page, 'a preview with its photo-real button');
    // Reachable by keyboard: it is a real button with its name.
    await button.focus();
    await expect(button).toBeFocused();

    const callsBefore = gemini.calls().length;
    const rerun = page.waitForResponse((r) => /\/api\/tryons\/[^/]+\/rerun$/.test(r.url()));
    await button.click();
    const res = await rerun;
    expect(res.status(), await res.text()).toBe(200);
    expect(gemini.calls().length).toBe(callsBefore + 1);
    await expect(page.getByTestId('result-image')).toBeVisible();
    await expect(page.getByTestId('result-image')).not.toHaveAttribute('src', first ?? '');
    // A hosted result: no preview label, no button.
    await expect(page.getByTestId('preview-note')).toHaveCount(0);
    await expect(page.getByTestId('make-photo-real')).toHaveCount(0);
    await shootResult(page, 'photo-real-result');

    await page.getByRole('link', { name: 'My Gallery' }).click();
    const items = page.getByTestId('gallery-item');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0).getByTestId('gallery-item-preview')).toHaveCount(0);
    await expect(items.nth(0).getByTestId('gallery-item-engine')).toHaveText('Nano Banana (Gemini)');
    await expect(items.nth(1).getByTestId('gallery-item-preview')).toContainText('Quick preview');
    // Its photos are still kept: the gallery offers the photo-real version too.
    await expect(items.nth(1).getByTestId('gallery-make-photo-real')).toBeVisible();
    // And its garment, small, over the result's corner; the hosted result kept no photos: its category's icon.
    const garment = items.nth(1).getByRole('img', { name: 'Garment photo (Upper Body)' });
    await expect(garment).toHaveAttribute('src', /^\/api\/tryons\/[A-Za-z0-9_-]+\/garment$/);
    await expect.poll(() => garment.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(50);
    await expect(items.nth(0).getByTestId('gallery-item-garment')).toHaveCount(0);
    await expect(items.nth(0).getByTestId('gallery-item-garment-icon')).toBeVisible();
    await expectNoSeriousViolations(page, 'gallery with a preview and a photo-real result');
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await items.nth(1).screenshot({
        path: path.join(SHOTS, `gallery-preview-${width}.png`),
        style: '.sticky{position:static!important}',
      });
    }
  });

  test.describe('a garment refused as worn', () => {
    // The browser logs the refusal's HTTP 422.
    test.use({ allowedConsoleErrors: [/status of 422/] });

    test('a garment the built-in engine refuses as worn offers “Try with Nano Banana (Gemini)”: the same try-on there, charged once', async ({
      page,
    }) => {
      const userId = await openSignedIn(page);
      await expect(page.getByTestId('engine-select')).toHaveValue('local');
      const refused = await refusedAsWorn(page);
      expect(await refused.json()).toMatchObject({
        code: 'GARMENT_WORN',
        alternativeEngine: { id: 'nano-banana', label: 'Nano Banana (Gemini)' },
      });
      const box = page.getByTestId('error-box');
      await expect(box.getByTestId('error-message')).toHaveText(MESSAGES.garmentWorn);
      const button = box.getByRole('button', { name: 'Try with Nano Banana (Gemini)' });
      await expect(button).toBeVisible();
      await expect(box.getByTestId('alternative-engine')).toContainText('it uses one try-on');
      // The refusal was not charged.
      expect(await trialsUsed(page, userId)).toBe(0);
      await shootResult(page, 'worn-garment-offer');
      await expectNoSeriousViolations(page, 'a worn garment refused, with the hosted engine offered');

      const callsBefore = gemini.calls().length;
      const rerun = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
      await button.click();
      const res = await rerun;
      expect(res.status(), await res.text()).toBe(200);
      expect(gemini.calls().length).toBe(callsBefore + 1);
      // The same try-on (its category), on the hosted engine.
      const list = await page.request.get('/api/tryons');
      expect((await list.json()) as unknown).toMatchObject({
        items: [{ engine: 'nano-banana', category: 'dresses' }],
      });
      await expect(page.getByTestId('result-image')).toBeVisible();
      // A hosted result: no preview label; the engine picker shows the engine that made it.
      await expect(page.getByTestId('preview-note')).toHaveCount(0);
      await expect(page.getByTestId('engine-select')).toHaveValue('nano-banana');
      // Charged once, for the hosted result.
      expect(await trialsUsed(page, userId)).toBe(1);
    });

    test.describe('in Arabic', () => {
      test.use({ locale: 'ar' });

      test('the refusal and its button read right to left', async ({ page }) => {
        await openSignedIn(page);
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        await refusedAsWorn(page, 'ar');
        const box = page.getByTestId('error-box');
        await expect(box.getByTestId('error-message')).toHaveText(catalogMessage('ar', 'msg.garmentWorn'));
        await expect(box.getByTestId('try-alternative-engine')).toHaveText(
          catalogMessage('ar', 'tryon.result.tryWithEngine').replace('{engine}', 'Nano Banana (Gemini)'),
        );
        await shootResult(page, 'worn-garment-offer-ar');
      });
    });
  });
});
