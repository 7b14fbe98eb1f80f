import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { catalogMessage as message, expect, openSignedIn, PHOTOS, test } from '../fixtures';

const LANGUAGES = [
  { code: 'en', name: 'English', label: 'ENGLISH' },
  { code: 'es', name: 'Español', label: 'ESPAÑOL' },
  { code: 'fr', name: 'Français', label: 'FRANÇAIS' },
  { code: 'de', name: 'Deutsch', label: 'DEUTSCH' },
  { code: 'pt-BR', name: 'Português (Brasil)', label: 'PORTUGUÊS' },
  { code: 'ar', name: 'العربية', label: 'العربية' },
] as const;

const html = (page: Page) => page.locator('html');

test.describe('a Spanish browser', () => {
  test.use({ locale: 'es-ES' });

  test('gets the page in Spanish, with lang="es"', async ({ page }) => {
    await openSignedIn(page);
    await expect(html(page)).toHaveAttribute('lang', 'es');
    await expect(html(page)).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('link', { name: message('es', 'common.nav.gallery') }).first()).toBeVisible();
    await expect(
      page.getByRole('button', { name: message('es', 'common.language.button').replace('{language}', 'Español') }),
    ).toHaveText('ESPAÑOL');
    // The product's messages come in Spanish too: "Try with AI" with one photo only.
    await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.getByTestId('try-with-ai').click({ force: true });
    await expect(page.getByTestId('try-notice')).toHaveText(message('es', 'msg.uploadClothingMissing'));
    // The page's own message, no native alert box.
    expect(alerts).toEqual([]);
    // So are the new photo checks.
    await page.getByTestId('upload-clothing-input').setInputFiles({
      name: 'factura.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('%PDF-1.7\n1 0 obj\n'),
    });
    await expect(page.getByTestId('upload-clothing-error')).toHaveText(message('es', 'msg.notAPhoto'));
  });
});

test('the language menu switches to German and back, by mouse and by keyboard', async ({ page }) => {
  await openSignedIn(page);
  await expect(html(page)).toHaveAttribute('lang', 'en');
  const button = page.getByRole('button', { name: 'Language: English' });
  await expect(button).toHaveText('ENGLISH');
  await button.click();
  const menu = page.getByRole('menu');
  const items = menu.getByRole('menuitemradio');
  await expect(items).toHaveText(LANGUAGES.map((l) => l.name));
  await expect(menu.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
  await menu.getByRole('menuitemradio', { name: 'Deutsch' }).click();
  await expect(html(page)).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('link', { name: message('de', 'common.nav.gallery') }).first()).toBeVisible();
  const german = page.getByRole('button', { name: 'Sprache: Deutsch' });
  await expect(german).toHaveText('DEUTSCH');
  await expect(german).toBeFocused();

  // Back to English with the keyboard: open with Enter, the checked item has focus, Home goes to English.
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitemradio', { name: 'Deutsch' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(html(page)).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Language: English' })).toHaveText('ENGLISH');
  await expect(page.getByRole('link', { name: 'My Gallery' }).first()).toBeVisible();
  // Escape closes the menu and gives focus back.
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Language: English' })).toBeFocused();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Arabic from the mobile menu: right to left, nothing scrolls sideways, kept across a reload and onto the legal pages', async ({
    page,
  }) => {
    await openSignedIn(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menu').getByRole('menuitemradio', { name: 'العربية' }).click();
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    await expect(html(page)).toHaveAttribute('lang', 'ar');

    const noSidewaysScroll = async () => {
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, 'page width').toBeLessThanOrEqual(clientWidth);
    };
    await noSidewaysScroll();

    await page.reload();
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('button', { name: message('ar', 'common.nav.openMenu') })).toBeVisible();
    await noSidewaysScroll();

    await page.goto('/terms-of-service');
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    await expect(html(page)).toHaveAttribute('lang', 'ar');
    await expect(page.locator('main h1')).toHaveText(message('ar', 'legal.terms.title', 'legal'));
    await noSidewaysScroll();

    // The paywall, the widest dialog, fits too.
    await page.goto('/');
    await page.getByTestId('test-paywall').click();
    await expect(page.getByTestId('paywall')).toContainText(message('ar', 'paywall.plan.weekly.name'));
    await noSidewaysScroll();
  });
});

async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const lang of LANGUAGES) {
  test(`axe finds no serious violations in ${lang.name} on the home page, the paywall and a legal page`, async ({
    page,
  }) => {
    await page.addInitScript((code) => window.localStorage.setItem('aidressup.locale', code), lang.code);
    await openSignedIn(page);
    await expect(html(page)).toHaveAttribute('lang', lang.code);
    await expect(page.locator('nav').first()).toContainText(lang.label);
    await expect(page.getByRole('link', { name: message(lang.code, 'common.nav.gallery') }).first()).toBeVisible();
    await expectNoSeriousViolations(page, 'home');

    await page.getByTestId('test-paywall').click();
    await expect(page.getByTestId('paywall')).toBeVisible();
    await expect(page.getByTestId('paywall')).toContainText(message(lang.code, 'paywall.plan.monthly.name'));
    await expectNoSeriousViolations(page, 'paywall');
    await page.keyboard.press('Escape');

    await page.goto('/privacy-policy');
    await expect(page.locator('main h1')).toHaveText(message(lang.code, 'legal.privacy.title', 'legal'));
    // Every translation says that the English text governs; English itself has no such note.
    await expect(page.getByTestId('legal-translation-note')).toHaveCount(lang.code === 'en' ? 0 : 1);
    await expectNoSeriousViolations(page, 'privacy policy');
  });
}
