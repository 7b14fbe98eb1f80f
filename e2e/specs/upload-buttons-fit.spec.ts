/**
 * Every button in the upload cards shows its whole label, at each width from a small phone to a
 * laptop and in every language: with photos in (Replace, Remove, Keep this photo, Add another
 * garment, the bottom card of a whole outfit) and without (the drop zones; the camera buttons of a
 * touch screen). A label is clipped when the button's content is wider or taller than the button
 * (scrollWidth > clientWidth, scrollHeight > clientHeight), when its visible text runs past the
 * button's edges, or when the button runs past its card's.
 */
import type { Page } from '@playwright/test';
import { expect, PHOTOS, test } from '../fixtures';

const WIDTHS = [320, 390, 768, 1024, 1366] as const;
const LOCALES = ['en-US', 'es-ES', 'fr-FR', 'de-DE', 'pt-BR', 'ar'] as const;

interface Measured {
  card: string;
  label: string;
  problems: string[];
}

/** Every visible button of the upload cards, with what clips its label (nothing, when it fits). */
function measure(page: Page): Promise<Measured[]> {
  return page.evaluate(() => {
    const out: { card: string; label: string; problems: string[] }[] = [];
    for (const button of document.querySelectorAll<HTMLElement>('[data-upload-card] button')) {
      const box = button.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(button).visibility === 'hidden') continue;
      const card = button.closest<HTMLElement>('[data-upload-card]')!;
      const cardBox = card.getBoundingClientRect();
      const problems: string[] = [];
      if (button.scrollWidth > button.clientWidth + 1)
        problems.push(`content ${button.scrollWidth} px wide in ${button.clientWidth}`);
      if (button.scrollHeight > button.clientHeight + 1)
        problems.push(`content ${button.scrollHeight} px tall in ${button.clientHeight}`);
      // The visible text (not the screen-reader-only words) within the button's box.
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || node.parentElement?.closest('.sr-only')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
            problems.push(`"${node.textContent.trim()}" runs past the button`);
        }
      }
      if (box.left < cardBox.left - 1 || box.right > cardBox.right + 1) problems.push('runs past its card');
      const visible = [...button.childNodes]
        .map((n) => (n instanceof HTMLElement && n.classList.contains('sr-only') ? '' : n.textContent))
        .join('')
        .trim();
      out.push({ card: card.dataset.uploadCard ?? '?', label: visible, problems });
    }
    return out;
  });
}

/** Checks every width: each button measured, none clipped; answers how many were measured. */
async function expectAllFit(page: Page, state: string): Promise<number> {
  let measured = 0;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 1000 });
    // Laid out again at this width before measuring.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const buttons = await measure(page);
    expect(buttons.length, `${state} at ${width} px: buttons found`).toBeGreaterThan(0);
    const clipped = buttons.filter((b) => b.problems.length > 0);
    expect(clipped, `${state} at ${width} px`).toEqual([]);
    measured += buttons.length;
  }
  return measured;
}

for (const locale of LOCALES) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test('the upload cards’ buttons fit at 320, 390, 768, 1024 and 1366 px, photos in and out', async ({ page }) => {
      await page.goto('/');
      // Empty cards: the drop zones.
      await expect(page.getByTestId('upload-person-dropzone')).toBeVisible();
      await expectAllFit(page, 'empty');
      // A whole outfit (person, top, bottom): Replace and Remove on three cards, Keep this photo.
      await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
      await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
      await expect(page.getByTestId('upload-bottom-dropzone')).toBeVisible();
      await page.getByTestId('upload-bottom-input').setInputFiles(PHOTOS.lower);
      await expect(page.getByTestId('upload-bottom-preview')).toBeVisible();
      await expect(page.getByTestId('keep-photo')).toBeVisible();
      expect(await expectAllFit(page, 'a whole outfit')).toBeGreaterThanOrEqual(WIDTHS.length * 6);
      // One garment: Add another garment under it.
      await page.getByTestId('upload-bottom').getByRole('button').last().click();
      await expect(page.getByTestId('add-garment')).toBeVisible();
      await expectAllFit(page, 'one garment');
    });
  });
}

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, isMobile: true, locale: 'de-DE' });

  test('the camera buttons fit too', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('upload-person-camera')).toBeVisible();
    await expectAllFit(page, 'empty, with the camera buttons');
  });
});
