import { FINGERPRINT_SETTLE_MS } from '../../apps/web/src/features/session/utils/fingerprint-due';
import { appStartedAt, expect, openSignedIn, test, userBox, watchScripts, type WatchedScript } from '../fixtures';

/*
 * Device id. Fingerprinting is made to fail with the documented test hook
 * `window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true`, set before the page loads with
 * page.addInitScript (the default in fixtures.ts; `realFingerprint: true` turns it off).
 * The device id only limits free trials: the session cookie, not the device id, keeps a browser
 * on its account (specs/account.spec.ts checks that the same device id without it is a new user).
 */
test.describe('when fingerprinting fails', () => {
  test('a fallback device id is generated, stored, and reused after a reload (same user: the session cookie)', async ({
    page,
  }) => {
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    const id = await openSignedIn(page);
    const deviceId = ((await request).postDataJSON() as { deviceId: string }).deviceId;
    expect(deviceId).toMatch(/^fb_[a-f0-9]{32}$/);
    expect(await page.evaluate(() => localStorage.getItem('aidressup.deviceId'))).toBe(deviceId);

    const again = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    const response = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
    await page.reload();
    expect(((await again).postDataJSON() as { deviceId: string }).deviceId).toBe(deviceId);
    expect(((await (await response).json()) as { user: { id: string } }).user.id).toBe(id);
  });

  test('a stored fallback id is used when one exists', async ({ page }) => {
    await page.addInitScript(() => {
      if (!localStorage.getItem('aidressup.deviceId'))
        localStorage.setItem('aidressup.deviceId', 'fb_preset_device_0001');
    });
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    await openSignedIn(page);
    expect(((await request).postDataJSON() as { deviceId: string }).deviceId).toBe('fb_preset_device_0001');
  });

  test.describe('without the session cookie', () => {
    // The page still refreshes its cached (display-only) user, which the server refuses: 401 when
    // the refresh arrives before the new anonymous session, 403 (another user's id) after it.
    test.use({ allowedConsoleErrors: [/status of 40[13]/] });
    test('the device id alone opens no account: the same id is a new user', async ({ page, context }) => {
      const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
      const id = await openSignedIn(page);
      const deviceId = ((await request).postDataJSON() as { deviceId: string }).deviceId;

      await context.clearCookies();
      const again = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
      const response = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
      await page.reload();
      expect(((await again).postDataJSON() as { deviceId: string }).deviceId).toBe(deviceId);
      const body = (await (await response).json()) as { user: { id: string }; isNew: boolean };
      expect(body.isNew).toBe(true);
      expect(body.user.id).not.toBe(id);
      await expect(page.getByTestId('user-id')).toHaveText(body.user.id.slice(0, 8));
    });
  });
});

test.describe('when fingerprinting works', () => {
  test.use({ realFingerprint: true });
  test('the FingerprintJS visitor id is the device id and no fallback is stored', async ({ page }) => {
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    await openSignedIn(page);
    const deviceId = ((await request).postDataJSON() as { deviceId: string }).deviceId;
    expect(deviceId).toMatch(/^[a-f0-9]{32}$/);
    expect(await page.evaluate(() => localStorage.getItem('aidressup.deviceId'))).toBeNull();
  });

  const loaded = async (scripts: WatchedScript[], what: 'deviceIdCode' | 'fingerprintJs') => {
    await expect.poll(() => scripts.filter((s) => s[what]).length).toBe(1);
    return scripts.find((s) => s[what])!;
  };

  test('left alone, the page loads the device-id code and FingerprintJS only once it has settled', async ({ page }) => {
    const scripts = watchScripts(page);
    // Nothing may be evaluated in the page before the sign-in: Playwright's evaluate counts as a user gesture.
    await openSignedIn(page);
    // The settle time runs from the session's start, after the app's first render, itself after the app's start.
    const startedAt = await appStartedAt(page);
    expect((await loaded(scripts, 'deviceIdCode')).askedAt).toBeGreaterThanOrEqual(startedAt + FINGERPRINT_SETTLE_MS);
    expect((await loaded(scripts, 'fingerprintJs')).askedAt).toBeGreaterThanOrEqual(startedAt + FINGERPRINT_SETTLE_MS);
  });

  for (const path of ['/account', '/gallery', '/sign-in/verify']) {
    test(`on ${path} the session starts at once, with no input and no waiting for the page to settle`, async ({
      page,
    }) => {
      const scripts = watchScripts(page);
      const signIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
      await page.goto(path);
      expect((await signIn).status()).toBe(200);
      const startedAt = await appStartedAt(page);
      // Sooner than the home page's settle time could have made it due.
      expect((await loaded(scripts, 'deviceIdCode')).askedAt).toBeLessThan(startedAt + FINGERPRINT_SETTLE_MS);
      await expect(userBox(page).id).toHaveText(/^\S{8}$/);
      if (path === '/account') await expect(page.getByTestId('account-credits')).toHaveText(/^\d+$/);
    });
  }

  test('a shopper who comes back starts the session at once on the home page too', async ({ page }) => {
    await openSignedIn(page);
    const scripts = watchScripts(page);
    const signIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
    await page.reload();
    expect((await signIn).status()).toBe(200);
    const startedAt = await appStartedAt(page);
    expect((await loaded(scripts, 'deviceIdCode')).askedAt).toBeLessThan(startedAt + FINGERPRINT_SETTLE_MS);
  });

  test('the shopper’s first interaction, even before the app has started, makes fingerprinting due at once', async ({
    page,
  }) => {
    const scripts = watchScripts(page);
    const signIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
    await page.goto('/');
    const pressedAt = Date.now();
    await page.keyboard.press('Tab');
    expect((await signIn).status()).toBe(200);
    const startedAt = await appStartedAt(page);
    const fingerprintJs = await loaded(scripts, 'fingerprintJs');
    expect(fingerprintJs.askedAt).toBeGreaterThanOrEqual(pressedAt);
    // Sooner than the settle time could have made it due.
    expect(fingerprintJs.askedAt).toBeLessThan(startedAt + FINGERPRINT_SETTLE_MS);
  });
});
