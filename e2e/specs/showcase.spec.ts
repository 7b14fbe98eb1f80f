/**
 * The home page's showcase: where the built-in engine's result was judged fit to show, a card
 * shows the two photos the try-on starts from beside the result, each image with its own alt
 * text; the result is labelled a quick preview, as the footer's promise is. Also: an openly
 * licensed dress photo as the garment suggests Full Outfit.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogMessage, expect, openSignedIn, test } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const openDress = path.join(here, '../../packages/engine/test-fixtures/garment/dress_purple_hanger.jpg');

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('result cards show the person, the garment and the quick preview, each image described', async ({ page }) => {
      await openSignedIn(page);
      const cards = page.getByTestId('showcase').getByRole('listitem');
      await expect(cards).toHaveCount(3);
      const results = page.locator('[data-testid="showcase"] li[data-showcase="result"]');
      await expect(results).toHaveCount(2);
      for (const card of await results.all()) {
        const images = card.getByRole('img');
        await expect(images).toHaveCount(3);
        const alts = await images.evaluateAll((els) => els.map((e) => e.getAttribute('alt') ?? ''));
        for (const alt of alts) expect(alt.trim().length).toBeGreaterThan(10);
        expect(new Set(alts).size).toBe(3);
        const result = card.locator('img[src$="-result.webp"]');
        await expect(result).toHaveAttribute('alt', /^Quick preview from the built-in engine: the same woman wearing/);
        // Labelled a quick preview; on a phone, where it is small, "After".
        await expect(card.getByText(viewport.width >= 640 ? 'Quick preview' : 'After', { exact: true })).toBeVisible();
        // The result has really loaded. On a laptop it is the large picture beside the two photos;
        // on a phone the three stand side by side, the result last (after the person and the garment).
        await result.scrollIntoViewIfNeeded();
        await expect.poll(() => result.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(450);
        const person = (await card.locator('img[src$="-person.webp"]').boundingBox())!;
        const garment = (await card.locator('img[src$="-garment.webp"]').boundingBox())!;
        const after = (await result.boundingBox())!;
        if (viewport.width >= 640) {
          expect(after.width).toBeGreaterThan(person.width * 1.8);
          expect(after.height).toBeGreaterThan(person.height * 1.8);
        } else {
          expect(Math.abs(after.width - person.width)).toBeLessThan(2);
          expect(Math.abs(after.y - person.y)).toBeLessThan(2);
          expect(garment.x).toBeGreaterThan(person.x);
          expect(after.x).toBeGreaterThan(garment.x);
        }
        // Nothing of the card's pictures spills past its edges.
        const box = await card.boundingBox();
        for (const img of await images.all()) {
          const b = (await img.boundingBox())!;
          expect(b.x).toBeGreaterThanOrEqual(box!.x);
          expect(b.x + b.width).toBeLessThanOrEqual(box!.x + box!.width + 0.5);
        }
      }
      // The card without a result fit to show keeps its two photos, described too.
      const inputs = page.locator('[data-testid="showcase"] li[data-showcase="inputs"]');
      await expect(inputs).toHaveCount(1);
      await expect(inputs.getByRole('img')).toHaveCount(2);
      await expect(inputs.locator('img[src$="-result.webp"]')).toHaveCount(0);
    });
  });
}

test('in Arabic the showcase’s alt texts and the footer come from the Arabic catalog', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('aidressup.locale', 'ar'));
  await openSignedIn(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  const showcase = page.getByTestId('showcase');
  await expect(showcase).toHaveAttribute('aria-label', catalogMessage('ar', 'tryon.showcase.label'));
  await expect(showcase.locator('img[src="/showcase/casual-result.webp"]')).toHaveAttribute(
    'alt',
    catalogMessage('ar', 'tryon.showcase.casual.resultAlt'),
  );
  await expect(showcase.locator('img[src="/showcase/swap-garment.webp"]')).toHaveAttribute(
    'alt',
    catalogMessage('ar', 'tryon.showcase.swap.stripedPoloAlt'),
  );
  await expect(page.getByRole('contentinfo')).toContainText(catalogMessage('ar', 'layout.footer.tagline'));
});

test('the footer promises what the default engine makes: a quick preview', async ({ page }) => {
  await openSignedIn(page);
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('get a quick preview of the fit in moments');
  await expect(footer).not.toContainText('realistic');
});

test('an openly licensed dress photo as the garment suggests Full Outfit', async ({ page }) => {
  await openSignedIn(page);
  const answer = page.waitForResponse(
    (r) => r.url().endsWith('/api/garments/classify') && r.request().method() === 'POST',
  );
  await page.getByTestId('upload-clothing-input').setInputFiles(openDress);
  expect((await answer).status()).toBe(200);
  await expect(page.getByTestId('category-select')).toContainText('Full Outfit');
  await expect(page.getByTestId('category-note')).toHaveText('Looks like Full Outfit — change it if not');
});
