import { expect, openSignedIn, test } from '../fixtures';

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
