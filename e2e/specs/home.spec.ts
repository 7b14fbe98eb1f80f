import { expect, openSignedIn, test } from '../fixtures';

test('the main page has every section in order', async ({ page }) => {
  await openSignedIn(page);
  const showcase = page.getByTestId('showcase');
  for (const title of ['Casual to Elegant', 'Style Swap Magic', 'Professional Try-on']) {
    await expect(showcase.getByRole('heading', { name: title })).toBeVisible();
  }
  // Two cards show the two photos and the result, one the two photos only.
  await expect(showcase.getByRole('img')).toHaveCount(8);
  await expect(page.getByTestId('step-indicator').getByRole('listitem')).toHaveText([
    /Person/,
    /Clothing/,
    /AI Process/,
    /Result/,
  ]);
  const guide = page.getByTestId('photo-guide');
  await expect(guide).toContainText('Full body, standing straight, plain background.');
  await expect(guide).toContainText('Laid flat or on a hanger, on a white background, complete and wrinkle-free.');
  await expect(guide).toContainText('768x1024 pixels, as JPG or PNG.');
  await expect(page.getByTestId('reviews').getByTestId('review')).toHaveCount(5);

  // Top to bottom.
  const order = [
    'showcase',
    'step-indicator',
    'category-select',
    'photo-guide',
    'upload-person',
    'try-with-ai',
    'result-panel',
    'test-paywall',
    'reviews',
  ];
  const tops: number[] = [];
  for (const id of order)
    tops.push(await page.getByTestId(id).evaluate((el) => el.getBoundingClientRect().top + window.scrollY));
  const photoGuideIndex = order.indexOf('photo-guide');
  for (let i = 1; i < order.length; i++) {
    // On desktop the category and photo guide sit in a column beside the upload cards.
    if (i === photoGuideIndex + 1) continue;
    expect(tops[i], `${order[i]} below ${order[i - 1]}`).toBeGreaterThanOrEqual(tops[i - 1]!);
  }
});

test('desktop shows four of the five testimonials', async ({ page }) => {
  await openSignedIn(page);
  const reviews = page.getByTestId('review');
  await expect(reviews).toHaveCount(5);
  let visible = 0;
  for (let i = 0; i < 5; i++) if (await reviews.nth(i).isVisible()) visible++;
  expect(visible).toBe(4);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('shows all five testimonials', async ({ page }) => {
    await openSignedIn(page);
    const reviews = page.getByTestId('review');
    for (let i = 0; i < 5; i++) await expect(reviews.nth(i)).toBeVisible();
  });
});
