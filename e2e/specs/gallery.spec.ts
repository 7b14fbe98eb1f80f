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
