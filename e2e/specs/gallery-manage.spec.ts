import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { PublicConfigSchema } from '@aidressup/contract';
import { expect, openSignedIn, test, tryOnce, uploadBoth } from '../fixtures';

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

/**
 * Managing a result in My Gallery: what it shows (category, engine, local date), sharing it by a
 * public link that a browser without any cookie opens, stopping sharing, and deleting it after a
 * confirmation.
 */
test('a result is shown, shared, unshared and deleted from My Gallery', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSignedIn(page);
  await uploadBoth(page);
  await tryOnce(page);
  const imageUrl = await page.getByTestId('result-image').getAttribute('src');
  expect(imageUrl).toMatch(/^\/api\/results\//);

  await page.getByRole('link', { name: 'My Gallery' }).click();
  const item = page.getByTestId('gallery-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('gallery-item-category')).toHaveText('Upper Body');
  const config = PublicConfigSchema.parse(await (await page.request.get('/api/config')).json());
  const engine = config.engines.find((e) => e.id === config.defaultEngine);
  await expect(item.getByTestId('gallery-item-engine')).toHaveText(engine?.label ?? config.defaultEngine);
  const date = item.getByTestId('gallery-item-date');
  const createdAt = await date.getAttribute('datetime');
  const localDate = await page.evaluate(
    (iso) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso ?? '')),
    createdAt,
  );
  await expect(date).toHaveText(localDate);
  // Every page fits: no "Load more" after the only result.
  await expect(page.getByTestId('gallery-load-more')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'gallery with a result');
  // A phone's width: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousViolations(page, 'gallery at 390 px');
  await page.setViewportSize({ width: 1366, height: 900 });

  // Share: the link in a read-only field, copied with the button.
  await item.getByRole('button', { name: /^Share/ }).click();
  const shareDialog = page.getByRole('dialog', { name: 'Share this result' });
  const field = shareDialog.getByRole('textbox', { name: 'Share link' });
  await expect(field).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{43}$/);
  await expect(field).toHaveAttribute('readonly', '');
  const url = await field.inputValue();
  await expect(shareDialog.getByRole('button', { name: 'Copy link' })).toBeFocused();
  await shareDialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(shareDialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(page.getByTestId('gallery-status')).toHaveText('Link copied.');
  await expect(item.getByTestId('gallery-item-shared')).toBeVisible();
  await expectNoSeriousViolations(page, 'share dialog');

  // A browser without any cookie of ours opens the link.
  const visitor = await browser.newContext();
  try {
    const guest = await visitor.newPage();
    const opened = await guest.goto(url);
    expect(opened?.status()).toBe(200);
    const shared = guest.getByRole('img', { name: /AI try-on result/ });
    await expect(shared).toBeVisible();
    await expect.poll(() => shared.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await expect(shared).toHaveAttribute('src', `${url}/image`);
    await expect(guest.locator('meta[property="og:image"]')).toHaveAttribute('content', `${url}/image`);
    await expect(guest.locator('meta[property="og:title"]')).toHaveAttribute('content', /AI Dress Up/);
    await expect(guest.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
    await expect(guest.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(guest.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(guest.getByRole('link', { name: 'Try it yourself' })).toHaveAttribute('href', '/');
    expect(await visitor.cookies()).toEqual([]);
    await expectNoSeriousViolations(guest, 'share page');

    // Stop sharing: the page and its image are gone.
    await shareDialog.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(shareDialog).toBeHidden();
    await expect(page.getByTestId('gallery-status')).toHaveText('Sharing stopped. The link no longer works.');
    await expect(item.getByTestId('gallery-item-shared')).toHaveCount(0);
    await expect(item.getByRole('button', { name: /^Share/ })).toBeFocused();
    const gone = await guest.goto(url);
    expect(gone?.status()).toBe(404);
    await expect(guest.getByRole('heading', { level: 1 })).toHaveText('This link is not available');
    expect((await visitor.request.get(`${url}/image`)).status()).toBe(404);
  } finally {
    await visitor.close();
  }

  // Delete, from the keyboard: Escape keeps it, confirming deletes it.
  const deleteButton = item.getByRole('button', { name: /^Delete/ });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete this result?' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await expect(item).toHaveCount(1);

  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await expectNoSeriousViolations(page, 'delete dialog');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toHaveCount(0);
  await expect(page.getByTestId('gallery-status')).toHaveText('Result deleted.');
  await expect(page.getByRole('heading', { level: 1, name: 'My Gallery' })).toBeFocused();
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
  expect((await page.request.get(imageUrl ?? '')).status()).toBe(404);

  // Still gone after a reload.
  await page.reload();
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
});
