import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, test, tryOnce, uploadBoth } from '../fixtures';

test('an empty gallery leads back to the try-on', async ({ page }) => {
  await openSignedIn(page, '/gallery');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Gallery');
  const empty = page.getByTestId('gallery-empty');
  await expect(empty).toContainText('No try-ons yet');
  await empty.getByRole('link', { name: 'Create your first try-on' }).click();
  await expect(page).toHaveURL(/\/(#try-on)?$/);
  await expect(page.getByTestId('step-indicator')).toBeVisible();
});

test('the gallery lists results newest first, each downloadable', async ({ page }) => {
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  const first = await page.getByTestId('result-image').getAttribute('src');
  await tryOnce(page);
  await expect(page.getByTestId('result-image')).not.toHaveAttribute('src', first ?? '');
  const second = await page.getByTestId('result-image').getAttribute('src');

  await page.getByRole('link', { name: 'My Gallery' }).click();
  const items = page.getByTestId('gallery-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByRole('img')).toHaveAttribute('src', second ?? '');
  await expect(items.nth(1).getByRole('img')).toHaveAttribute('src', first ?? '');
  await expect(items.nth(0)).toContainText('Upper Body');
  await expect(items.nth(0)).toContainText('Kept until');
  await expect(items.nth(0).getByRole('link', { name: /Download/ })).toHaveAttribute(
    'download',
    /^ai-dress-up-.+\.(png|jpg|webp)$/,
  );
});

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/shots/gallery';

/** The page's language from the next load on (the app reads it from localStorage). */
async function switchLanguage(page: Page, code: string) {
  await page.evaluate((c) => window.localStorage.setItem('aidressup.locale', c), code);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', code);
}

/** The element's top is below the sticky top bar and inside the window (a card may be taller than it). */
async function expectBelowTopBar(page: Page, target: Locator) {
  await expect
    .poll(async () => {
      const bar = await page.getByTestId('top-bar').boundingBox();
      const box = await target.boundingBox();
      const height = page.viewportSize()?.height ?? 0;
      return !!bar && !!box && box.y >= bar.y + bar.height - 1 && box.y + Math.min(box.height, 40) <= height;
    })
    .toBe(true);
}

/**
 * A card tells its result apart: the garment (here the category's icon: this server runs the
 * built-in engine alone, so no preview keeps its photos), a caption with the category and the
 * minute, Download by its try-on's name, a labelled Report button; after a delete the focus goes
 * to the next card, and after the last one to the heading, clear of the top bar.
 */
test('gallery cards: garment, caption, labelled Report, and the focus after a delete', async ({ page }) => {
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  const first = await page.getByTestId('result-image').getAttribute('src');
  await tryOnce(page);
  await expect(page.getByTestId('result-image')).not.toHaveAttribute('src', first ?? '');

  await page.getByRole('link', { name: 'My Gallery' }).click();
  const items = page.getByTestId('gallery-item');
  await expect(items).toHaveCount(2);
  const captions: string[] = [];
  for (const item of await items.all()) {
    await expect(item.getByTestId('gallery-item-garment-icon')).toBeVisible();
    await expect(item.getByTestId('gallery-item-garment')).toHaveCount(0);
    const caption = item.getByTestId('gallery-item-caption');
    await expect(caption.getByTestId('gallery-item-category')).toHaveText('Upper Body');
    const date = caption.getByTestId('gallery-item-date');
    const iso = await date.getAttribute('datetime');
    // To the minute, or to the second when the other card was made in the same minute.
    const [minute, second] = await page.evaluate(
      (at) =>
        (['short', 'medium'] as const).map((timeStyle) =>
          new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle }).format(new Date(at ?? '')),
        ),
      iso,
    );
    const shown = (await date.textContent()) ?? '';
    expect([minute, second]).toContain(shown);
    expect(shown).toMatch(/\d{1,2}:\d{2}/);
    captions.push((await caption.textContent()) ?? '');
    const name = `Upper Body result from ${shown}`;
    const report = item.getByRole('button', { name: `Report a problem with ${name}` });
    await expect(report).toBeVisible();
    await expect(report).toHaveText('Report a problem');
    const id = await item.getAttribute('data-item-id');
    await expect(item.getByRole('link', { name: `Download ${name}` })).toHaveAttribute(
      'download',
      new RegExp(`^ai-dress-up-${id}\\.(png|jpg|webp)$`),
    );
    await expect(item.getByRole('button', { name: `Share ${name}` })).toBeVisible();
  }
  // Two results of one category, made seconds apart: two captions.
  expect(new Set(captions).size).toBe(2);

  // Looked at: English and Arabic, on a phone and a laptop.
  for (const lang of ['en', 'ar']) {
    if (lang !== 'en') await switchLanguage(page, lang);
    await expect(items).toHaveCount(2);
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
      });
      await page.screenshot({ path: `${SHOTS}/gallery-${lang}-${width}.png`, fullPage: true });
    }
  }
  await expect(items.first().getByTestId('result-report')).toHaveText('الإبلاغ عن مشكلة');
  await switchLanguage(page, 'en');

  // Delete the first: the focus goes to the next card (named by its category and time).
  await page.setViewportSize({ width: 390, height: 844 });
  const secondId = await items.nth(1).getAttribute('data-item-id');
  await items
    .first()
    .getByRole('button', { name: /^Delete/ })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete this result?' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-item-id', secondId ?? '');
  await expect(items.first()).toBeFocused();
  await expectBelowTopBar(page, items.first());

  // Delete the last from the foot of the page: the focus goes to the heading, not under the top bar.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await items
    .first()
    .getByRole('button', { name: /^Delete/ })
    .click();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
  const heading = page.getByRole('heading', { level: 1, name: 'My Gallery' });
  await expect(heading).toBeFocused();
  await expectBelowTopBar(page, heading);
});
