import AxeBuilder from '@axe-core/playwright';
import { expect, openSignedIn, PHOTOS, test, uploadBoth, userBox } from '../fixtures';

test('a whole outfit: add a bottom, see that it uses 2 try-ons, get a result, and both free trials are gone', async ({
  page,
}) => {
  await openSignedIn(page);
  const box = userBox(page);
  await expect(box.trials).toHaveText('0 / 2');
  await uploadBoth(page);

  // Upper Body offers an optional bottom; the note appears only once one is added.
  const bottomCard = page.getByTestId('upload-bottom');
  await expect(page.getByTestId('upload-bottom-title')).toHaveText('Add a bottom (whole outfit)');
  await expect(page.getByTestId('outfit-note')).toHaveCount(0);
  await page.getByTestId('upload-bottom-input').setInputFiles(PHOTOS.lower);
  await expect(page.getByTestId('upload-bottom-preview')).toBeVisible();
  const note = page.getByTestId('outfit-note');
  await expect(note).toContainText('A whole outfit uses 2 try-ons');
  await expect(page.getByTestId('outfit-short')).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).include('#try-on').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const response = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const res = await response;
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { tryOnsUsed: number; freeTrialsUsed: number; usedFreeTrial: boolean };
  expect(body).toMatchObject({ tryOnsUsed: 2, freeTrialsUsed: 2, usedFreeTrial: true });

  const image = page.getByTestId('result-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await expect(box.trials).toHaveText('2 / 2');
  await expect(box.hasFreeTrial).toHaveText('no');

  // Nothing left for another outfit: the page says so and offers to remove the bottom.
  const short = page.getByTestId('outfit-short');
  await expect(short).toContainText('You have 0 try-ons left, not enough for a whole outfit');
  await page.getByTestId('outfit-remove-bottom').click();
  await expect(page.getByTestId('upload-bottom-preview')).toHaveCount(0);
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('upload-bottom-dropzone')).toBeFocused();
  await expect(bottomCard).toBeVisible();
});

test('the bottom is offered with Upper Body only, and with credits the outfit takes two of them', async ({ page }) => {
  await openSignedIn(page);
  const box = userBox(page);
  // Use the free trials with one outfit, then buy credits.
  await uploadBoth(page);
  await page.getByTestId('upload-bottom-input').setInputFiles(PHOTOS.lower);
  await expect(page.getByTestId('upload-bottom-preview')).toBeVisible();

  await page.getByTestId('category-select').click();
  await page.getByRole('option', { name: /Full Outfit/ }).click();
  await expect(page.getByTestId('upload-bottom')).toHaveCount(0);
  await expect(page.getByTestId('outfit-note')).toHaveCount(0);
  await page.getByTestId('category-select').click();
  await page.getByRole('option', { name: /Upper Body/ }).click();
  // The bottom chosen before is still there.
  await expect(page.getByTestId('upload-bottom-preview')).toBeVisible();

  const first = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  expect((await first).status()).toBe(200);
  await expect(box.trials).toHaveText('2 / 2');

  const bought = await page.request.post('/api/billing/demo/checkout', { data: { planId: 'weekly' } });
  expect(bought.status()).toBe(200);
  await page.reload();
  await expect(box.credits).toHaveText('20');
  await uploadBoth(page);
  await page.getByTestId('upload-bottom-input').setInputFiles(PHOTOS.lower);
  await expect(page.getByTestId('outfit-note')).toContainText('A whole outfit uses 2 try-ons');
  const second = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const res = await second;
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({
    usedFreeTrial: false,
    creditsRemaining: 18,
    tryOnsUsed: 2,
    freeTrialsUsed: 0,
  });
  await expect(box.credits).toHaveText('18');
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the bottom card and the note fit the screen', async ({ page }) => {
    await openSignedIn(page);
    await uploadBoth(page);
    await page.getByTestId('upload-bottom-input').setInputFiles(PHOTOS.lower);
    await expect(page.getByTestId('outfit-note')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The bottom card stays inside the screen, its buttons too.
    for (const id of ['upload-bottom', 'upload-clothing']) {
      const card = await page.getByTestId(id).boundingBox();
      expect(card!.x + card!.width, id).toBeLessThanOrEqual(390);
    }
    const remove = await page
      .getByTestId('upload-bottom')
      .getByRole('button', { name: 'Remove bottom photo' })
      .boundingBox();
    expect(remove!.x + remove!.width).toBeLessThanOrEqual(390);
    const note = await page.getByTestId('outfit-note').boundingBox();
    expect(note!.x).toBeGreaterThanOrEqual(0);
    expect(note!.x + note!.width).toBeLessThanOrEqual(390);
    await page.getByTestId('outfit-note').scrollIntoViewIfNeeded();
    if (process.env.OUTFIT_SCREENSHOT) await page.screenshot({ path: process.env.OUTFIT_SCREENSHOT });
  });
});
