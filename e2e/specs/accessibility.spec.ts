import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test, uploadBoth } from '../fixtures';

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

const ROUTES = [
  '/',
  '/gallery',
  '/account',
  '/billing/demo-portal',
  '/terms-of-service',
  '/privacy-policy',
  '/refund-policy',
  '/missing-page',
];

for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const route of ROUTES) {
      test(`axe finds no serious or critical violations on ${route}`, async ({ page }) => {
        await openSignedIn(page, route);
        await expect(page.locator('main')).not.toContainText('Loading…');
        await expectNoSeriousViolations(page, route);
      });
    }
  });
}

test('axe passes with photos uploaded, the category list open, and inside the dialogs', async ({ page }) => {
  await openSignedIn(page);
  await uploadBoth(page);
  await expectNoSeriousViolations(page, 'studio with photos');
  await page.getByTestId('category-select').click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await expectNoSeriousViolations(page, 'category list');
  await page.keyboard.press('Escape');
  await page.getByTestId('test-paywall').click();
  await expect(page.getByTestId('paywall')).toBeVisible();
  await expectNoSeriousViolations(page, 'paywall');
  await page.keyboard.press('Escape');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('sign-in-dialog')).toBeVisible();
  await expectNoSeriousViolations(page, 'sign-in dialog');
});

test('the category dropdown works with the keyboard', async ({ page }) => {
  await openSignedIn(page);
  const select = page.getByTestId('category-select');
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const list = page.getByRole('listbox');
  await expect(list).toBeVisible();
  await expect(list.getByRole('option', { name: /Upper Body/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(select).toBeFocused();
  await expect(select).toContainText('Full Outfit');
  await expect(select).toContainText('Dresses, Suits, Outfits');
  await expect(page.getByTestId('upload-clothing-title')).toHaveText('Full Outfit');
  await select.click();
  await page.getByRole('option', { name: /Lower Body/ }).click();
  await expect(page.getByTestId('upload-clothing-title')).toHaveText('Lower Body');
});

test('keyboard focus is visible', async ({ page }) => {
  await openSignedIn(page);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { width: style.outlineWidth, style: style.outlineStyle };
  });
  expect(outline.style).not.toBe('none');
  expect(parseFloat(outline.width)).toBeGreaterThanOrEqual(2);
});

test.describe('the skip link', () => {
  // The console refuses this browser, which is no operator's (403s are logged).
  test.use({ allowedConsoleErrors: [/status of 403/] });
  for (const width of [390, 1366]) {
    test(`the first Tab on every page reaches “Skip to content”, whole and on top, which moves focus to the page (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      for (const route of [...ROUTES, '/sign-in/verify', '/admin']) {
        // No input before the Tab: it is the keyboard user's first key, whether the app has replaced
        // the static first paint yet or not.
        await page.goto(route);
        await page.keyboard.press('Tab');
        // Whether the Tab came before the app replaced the static first paint or after, the app's own link has it.
        await expect(page.locator('[data-prerender-shell]')).toHaveCount(0);
        const skip = page.getByRole('link', { name: 'Skip to content' });
        await expect(skip, route).toBeFocused();
        const shown = await skip.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            inView: r.top >= 0 && r.left >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight,
            whole: el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight,
            onTop: top === el || el.contains(top) ? true : `${top?.tagName}.${top?.className}`,
          };
        });
        expect(shown, route).toEqual({ inView: true, whole: true, onTop: true });
        await page.keyboard.press('Enter');
        await expect(page.locator('main#main'), route).toBeFocused();
      }
    });
  }
});
