import { expect, openSignedIn, test, userBox } from '../fixtures';

interface SignInBody {
  deviceId: string;
  deviceInfo: Record<string, unknown>;
}

test('sign-in sends the device info (desktop)', async ({ page }) => {
  const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
  await openSignedIn(page);
  const body = (await request).postDataJSON() as SignInBody;
  expect(body.deviceInfo).toMatchObject({
    browser: 'Chrome',
    os: 'Linux',
    device_type: 'desktop',
    country: null,
    language: expect.any(String),
    timezone: expect.any(String),
  });
  expect(body.deviceInfo.screen_resolution).toMatch(/^\d+x\d+$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('device_type is mobile under 768 px', async ({ page }) => {
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    await openSignedIn(page);
    expect(((await request).postDataJSON() as SignInBody).deviceInfo.device_type).toBe('mobile');
  });
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 800, height: 1100 } });
  test('device_type is tablet from 768 to 1023 px', async ({ page }) => {
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/anonymous'));
    await openSignedIn(page);
    expect(((await request).postDataJSON() as SignInBody).deviceInfo.device_type).toBe('tablet');
  });
});

test('after a reload the cached user is shown at once, then refreshed and signed in again', async ({ page }) => {
  const id = await openSignedIn(page);
  const cached = await page.evaluate(() => localStorage.getItem('aidressup.user'));
  expect(JSON.parse(cached ?? '{}').id).toBe(id);

  // Hold the new sign-in: the user box must already show the cached user.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/auth/anonymous', async (route) => {
    await held;
    await route.continue();
  });
  const refresh = page.waitForResponse((r) => r.url().endsWith(`/api/auth/user/${id}`));
  await page.reload();
  await expect(userBox(page).id).toHaveText(id.slice(0, 8));
  expect((await refresh).status()).toBe(200);
  const signIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  release();
  const res = await signIn;
  expect(((await res.json()) as { user: { id: string }; isNew: boolean }).user.id).toBe(id);
  expect(((await res.json()) as { isNew: boolean }).isNew).toBe(false);
  await expect(userBox(page).id).toHaveText(id.slice(0, 8));
});

test('Sign In opens the email sign-in dialog; Escape closes it and focus returns to Sign In', async ({ page }) => {
  await openSignedIn(page);
  const opener = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' });
  await opener.click();
  const dialog = page.getByTestId('sign-in-dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Sign in with email');
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  await expect(dialog.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('the account page shows the full user id, which support asks for', async ({ page }) => {
  const id = await openSignedIn(page, '/account');
  await expect(page.getByTestId('account-id')).toHaveText(id);
  await expect(page.getByTestId('account-email')).toHaveText('Not signed in');
});
