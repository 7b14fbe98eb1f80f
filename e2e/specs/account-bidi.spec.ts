/**
 * Bidirectional text on the account's surfaces: in Arabic, the address and the account id read
 * left to right and are cut at their own end (the navigation, the mobile menu, the account page).
 */
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from '../fixtures';
import { uniqueEmail } from '../mail';
import { openDevice, signInWithCode } from '../accounts';

for (const width of [1366, 390]) {
  test(`in Arabic, the address and the account id read left to right and are cut at their own end (${width} px)`, async ({
    browser,
  }) => {
    const device = await openDevice(browser, { width });
    const { page } = device;
    await openSignedIn(page);
    // A long address, so the navigation has to cut it; signed in in English, then read in Arabic.
    const email = uniqueEmail(`a-very-long-shopper-name-${width}-per-desk`);
    await signInWithCode(page, email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.evaluate(() => window.localStorage.setItem('aidressup.locale', 'ar'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    /** Left to right, and the address's first character in view (an ellipsis, if any, at its end). */
    const readsLtrFromItsStart = (locator: ReturnType<Page['locator']>) =>
      locator.evaluate((el) => {
        const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) ?? el.firstChild;
        const range = document.createRange();
        range.setStart(text!, 0);
        range.setEnd(text!, 1);
        const first = range.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return {
          direction: getComputedStyle(el).direction,
          firstInView: first.left >= box.left - 1 && first.right <= box.right + 1,
          text: el.textContent,
        };
      });
    if (width >= 768) {
      const nav = page.getByTestId('nav-account').locator('bdi');
      expect(await readsLtrFromItsStart(nav)).toEqual({ direction: 'ltr', firstInView: true, text: email });
    } else {
      await page.getByRole('button', { name: 'فتح القائمة' }).click();
      const line = page.getByRole('list').locator('bdi', { hasText: email });
      expect(await readsLtrFromItsStart(line)).toEqual({ direction: 'ltr', firstInView: true, text: email });
      await page.keyboard.press('Escape');
    }
    await page.goto('/account');
    const id = page.getByTestId('account-id').locator('bdi');
    expect(await readsLtrFromItsStart(id)).toMatchObject({ direction: 'ltr', firstInView: true });
    expect(
      await page
        .getByTestId('account-email')
        .locator('bdi')
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe('ltr');
    await expect(page.getByTestId('account-segment')).not.toHaveText(/^(trial|trial_exhausted|customer|subscriber)$/);
    await device.done();
  });
}
