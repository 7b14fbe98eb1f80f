import type { Page } from '@playwright/test';
import { expect, openSignedIn, test, tryOnce, uploadBoth, userBox } from '../fixtures';

/** A finger moving from one point to another in steps, as the browser's touch input (CDP). */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const point = (t: number) => ({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point(0)] });
  for (let i = 1; i <= 12; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(i / 12)] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the mobile menu has every navigation item and closes on navigation and Escape', async ({ page }) => {
    await openSignedIn(page);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Gallery' })).toBeHidden();

    await toggle.click();
    const menu = page.getByRole('list', { name: 'Mobile menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link', { name: 'AI Dress Up' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My Gallery' })).toBeVisible();
    await expect(menu.getByRole('button', { name: /English/i })).toContainText('ENGLISH');
    await expect(menu.getByRole('button', { name: 'Sign In' })).toBeVisible();

    await menu.getByRole('link', { name: 'My Gallery' }).click();
    await expect(page).toHaveURL(/\/gallery$/);
    await expect(menu).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('sign-in-dialog')).toBeVisible();
  });

  test('choosing a language closes the mobile menu, focus back on its button; Escape closes the account box', async ({
    page,
  }) => {
    await openSignedIn(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('list', { name: 'Mobile menu' });
    await menu.getByRole('button', { name: /English/i }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Menü öffnen' })).toBeFocused();

    const toggle = page.getByTestId('user-info-toggle');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(userBox(page).id).toBeHidden();
  });

  test('the compare slider moves on a sideways drag only: a vertical swipe that starts on it scrolls the page', async ({
    page,
  }) => {
    await openSignedIn(page);
    await uploadBoth(page);
    await tryOnce(page);
    const picture = page.getByTestId('compare-picture');
    const slider = page.getByTestId('compare-slider');
    await picture.scrollIntoViewIfNeeded();
    const box = (await picture.boundingBox())!;
    // Off the handle: a touch that snapped the slider to the finger would move it to about 25 %.
    const cx = box.x + box.width / 4;
    const cy = box.y + box.height / 2;
    const scrolledBefore = await page.evaluate(() => window.scrollY);
    await swipe(page, { x: cx, y: cy + 120 }, { x: cx + 6, y: cy - 120 });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolledBefore + 60);
    await expect(slider).toHaveValue('50');

    const after = (await picture.boundingBox())!;
    const y = after.y + after.height / 2;
    await swipe(page, { x: after.x + after.width * 0.5, y }, { x: after.x + after.width * 0.2, y: y + 4 });
    await expect.poll(async () => Number(await slider.inputValue())).toBeLessThan(30);
  });
});

test.describe('no horizontal scrolling at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  for (const path of [
    '/',
    '/gallery',
    '/account',
    '/billing/demo-portal',
    '/terms-of-service',
    '/privacy-policy',
    '/refund-policy',
    '/missing',
  ]) {
    test(`${path}`, async ({ page }) => {
      await openSignedIn(page, path);
      await expect(page.locator('main')).toBeVisible();
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    });
  }
});
