import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { MESSAGES, type ErrorResponse, type PublicConfig } from '@aidressup/contract';
import { catalogMessage, expect, openSignedIn, test, uploadBoth } from '../fixtures';

const SHOTS = '/tmp/shots';
// The hosted engine's try-on goes to the real server, which runs only the built-in engine (400).
test.use({ allowedConsoleErrors: [/status of 4(00|22)/] });

/**
 * The built-in engine's refusal of a garment it could not place on the body, as the server sends it
 * (HTTP 422, the contract's error body): a stand-in for the first try-on only, since which photos
 * the engine refuses depends on its figures (apps/server's outfit.test.ts has the server's own
 * answer). Every later post goes to the real server. Returns the forms posted.
 */
async function refuseFirstTryOn(page: Page): Promise<string[]> {
  const forms: string[] = [];
  await page.route('**/api/process-image', async (route) => {
    forms.push(route.request().postDataBuffer()?.toString('latin1') ?? '');
    if (forms.length > 1) return route.continue();
    const body: ErrorResponse = { success: false, code: 'GARMENT_NOT_PLACED', error: MESSAGES.garmentNotPlaced };
    await route.fulfill({ status: 422, json: body });
  });
  return forms;
}

/** A config with the built-in engine and a hosted one that is up (the server itself runs only the built-in). */
async function withHostedEngine(page: Page) {
  await page.route('**/api/config', async (route) => {
    const res = await route.fetch();
    const config = (await res.json()) as PublicConfig;
    config.engines = [
      { id: 'local', label: 'Built-in engine', kind: 'local', estimateSeconds: { min: 1, max: 5 }, status: 'ok' },
      { id: 'nano-banana', label: 'Nano Banana (Gemini)', kind: 'hosted', status: 'ok' },
    ];
    config.defaultEngine = 'local';
    await route.fulfill({ response: res, json: config });
  });
}

/** A form field's value (or, for a file, its file name) in a multipart body. */
function field(form: string, name: string): string | undefined {
  for (const part of form.split(/\r\n--[^\r\n]*\r\n|^--[^\r\n]*\r\n/)) {
    const end = part.indexOf('\r\n\r\n');
    const headers = part.slice(0, end);
    if (!headers.includes(`name="${name}"`)) continue;
    return /filename="([^"]*)"/.exec(headers)?.[1] ?? part.slice(end + 4).split('\r\n')[0];
  }
  return undefined;
}

async function refused(page: Page, locale: string): Promise<string[]> {
  const forms = await refuseFirstTryOn(page);
  await openSignedIn(page);
  await uploadBoth(page);
  await page.getByTestId('try-with-ai').click();
  const box = page.getByTestId('error-box');
  await expect(box).toBeVisible();
  await expect(box.getByRole('heading')).toHaveText(catalogMessage(locale, 'msg.processFailed'));
  await expect(box.getByTestId('error-message').locator('p')).toHaveText([
    catalogMessage(locale, 'tryon.result.notPlaced.what'),
    catalogMessage(locale, 'tryon.result.notPlaced.works'),
  ]);
  await expect(page.locator('#result-title')).toBeFocused();
  return forms;
}

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const panel = page.getByTestId('result-panel');
    await panel.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await panel.screenshot({
      path: path.join(SHOTS, `${name}-${width}.png`),
      style: '.sticky{position:static!important}',
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

for (const locale of ['en', 'de']) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale: locale === 'en' ? 'en-US' : 'de-DE' });

    test('the refusal says in two short lines what photo works, and without a hosted engine names none', async ({
      page,
    }) => {
      await refused(page, locale);
      const box = page.getByTestId('error-box');
      await expect(box.getByTestId('alternative-engine')).toHaveCount(0);
      await expect(box.getByRole('button')).toHaveCount(0);
      await expect(box).not.toContainText(/engine/i);
      await shoot(page, `not-placed-${locale}`);
    });

    test('with a hosted engine up, the refusal offers it as a button that sends the same try-on to it', async ({
      page,
    }) => {
      await withHostedEngine(page);
      const forms = await refused(page, locale);
      const offer = page.getByTestId('try-alternative-engine');
      await expect(offer).toHaveText(
        catalogMessage(locale, 'tryon.result.tryWithEngine').replace('{engine}', 'Nano Banana (Gemini)'),
      );
      await expect(page.getByTestId('alternative-engine')).toContainText(
        catalogMessage(locale, 'tryon.result.tryWithEngineNotPlacedNote').replace('{engine}', 'Nano Banana (Gemini)'),
      );
      await shoot(page, `not-placed-hosted-${locale}`);

      const answer = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
      await offer.click();
      // The real server here runs only the built-in engine: it says the hosted one is not available.
      expect((await answer).status()).toBe(400);
      expect(forms).toHaveLength(2);
      const [first, again] = forms as [string, string];
      expect(field(first, 'api')).toBe('local');
      expect(field(again, 'api')).toBe('nano-banana');
      for (const name of ['category', 'userId', 'clothingImage'])
        expect([name, field(again, name)]).toEqual([name, field(first, name)]);
      expect(field(again, 'category')).toBe('upper_body');
      await expect(page.getByTestId('error-message')).toHaveText(catalogMessage(locale, 'msg.engineUnavailable'));
    });
  });
}
