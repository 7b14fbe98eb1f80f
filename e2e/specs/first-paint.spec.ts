import { DEVICE_ID_CODE, expect, firstPaintAt, PHOTOS, test, userBox, watchScripts } from '../fixtures';

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

test('the first paint follows the saved language or the browser’s, and never flashes English in another one', async ({
  request,
}) => {
  const english = await (await request.get('/', { headers: { 'accept-language': 'en-US,en;q=0.9' } })).text();
  expect(english).toMatch(/<html lang="en" dir="ltr">/);
  expect(english).toContain('See yourself in any outfit');

  const arabic = await request.get('/', { headers: { cookie: 'aidressup_locale=ar', 'accept-language': 'en-US' } });
  expect(arabic.headers()['vary']).toMatch(/Cookie/);
  const arabicHtml = await arabic.text();
  expect(arabicHtml).toMatch(/<html lang="ar" dir="rtl">/);
  expect(arabicHtml).toContain('id="root"');
  expect(arabicHtml).not.toContain('See yourself in any outfit');
  expect(arabicHtml).not.toContain('My Gallery');

  const spanish = await (
    await request.get('/gallery', { headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' } })
  ).text();
  expect(spanish).toMatch(/<html lang="es" dir="ltr">/);
  expect(spanish).not.toContain('My Gallery');
});

test('the first page renders and works without the device-id code, which is asked for only after the first paint', async ({
  page,
}) => {
  // Hold back the script that carries the device-id code until the page has shown it can do without.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const heldBack: string[] = [];
  await page.route('**/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes(DEVICE_ID_CODE)) {
      heldBack.push(new URL(route.request().url()).pathname);
      await held;
    }
    await route.fulfill({ status: response.status(), contentType: 'text/javascript; charset=utf-8', body });
  });
  const scripts = watchScripts(page);
  await page.goto('/');

  // The app has taken the static first paint's place and the studio takes a photo.
  await expect(page.locator('[data-prerender-shell]')).toHaveCount(0);
  await expect(page.getByTestId('try-with-ai')).toBeVisible();
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  expect(heldBack).toHaveLength(1);
  await expect(userBox(page).id).toHaveCount(0);

  // Then the session starts: device id (the test hook makes fingerprinting fail), anonymous sign-in.
  const signIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  release();
  expect((await signIn).status()).toBe(200);
  await expect(userBox(page).id).toHaveText(/^\S{8}$/);

  const paintedAt = await firstPaintAt(page);
  await expect.poll(() => scripts.filter((s) => s.deviceIdCode).length).toBe(1);
  const early = scripts.filter((s) => s.askedAt <= paintedAt);
  expect(early.length, 'the entry script is asked for before the first paint').toBeGreaterThan(0);
  expect(early.filter((s) => s.deviceIdCode || s.fingerprintJs)).toEqual([]);
  expect(scripts.find((s) => s.deviceIdCode)!.askedAt).toBeGreaterThan(paintedAt);
  // With fingerprinting failing, FingerprintJS is never loaded.
  expect(scripts.filter((s) => s.fingerprintJs)).toEqual([]);
});
