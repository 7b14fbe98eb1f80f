import { expect, test } from '../fixtures';

/**
 * index.html carries a static copy of the nav bar and the hero text so the first paint does not
 * wait for JavaScript; it must say exactly what the app renders and sit in the same place.
 */
test('the static first-paint shell matches the rendered home page and is replaced by it', async ({ page, request }) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('data-prerender-shell');

  await page.goto('/');
  await expect(page.getByTestId('try-with-ai')).toBeVisible();
  const shell = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    const root = doc.getElementById('root')!;
    const text = (sel: string) => root.querySelector(sel)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
    return {
      h1: text('h1'),
      intro: text('h1 + p'),
      badge: text('section > p'),
      brand: text('header a[href="/"]'),
    };
  }, html);
  const rendered = (loc: ReturnType<typeof page.locator>) =>
    loc.evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim());
  const h1 = page.locator('main h1').first();
  expect(shell.h1).toBe(await rendered(h1));
  expect(shell.intro).toBe(await rendered(page.locator('main h1 + p').first()));
  expect(shell.badge).toBe(await rendered(page.locator('main section > p').first()));
  expect(shell.brand).toBe(await rendered(page.locator('header a[href="/"]').first()));
  // React has replaced the shell.
  await expect(page.locator('[data-prerender-shell]')).toHaveCount(0);
});

test('the shell is painted without JavaScript and the app takes its place without moving the heading', async ({
  browser,
  baseURL,
}) => {
  const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const staticPage = await noJs.newPage();
  await staticPage.goto(baseURL!);
  const staticHeading = staticPage.getByRole('heading', { level: 1 });
  await expect(staticHeading).toBeVisible();
  const before = await staticHeading.boundingBox();
  await noJs.close();

  const withJs = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const appPage = await withJs.newPage();
  await appPage.addInitScript(() => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
  });
  await appPage.goto(baseURL!);
  await expect(appPage.getByTestId('try-with-ai')).toBeVisible();
  const after = await appPage.getByRole('heading', { level: 1 }).boundingBox();
  await withJs.close();
  expect(before).not.toBeNull();
  expect(after).toEqual(before);
});
