/**
 * No press is lost: on a first visit the session starts after an idle moment or the first
 * interaction. Photos set without a pointer (as a paste, a drop or assistive tech would), then Try
 * with AI pressed before the user is there: the specification's "Please wait, user is loading..."
 * shows, a second press adds nothing, and the try-on runs by itself once the user is there, once;
 * when the session cannot start, the page says so and sends nothing.
 */
import { MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { expect, PHOTOS, test } from '../fixtures';
import type { Page } from '@playwright/test';

/** Holds the anonymous sign-in until `release()`; its request is seen as `asked`. */
async function holdSignIn(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked = false;
  await page.route('**/api/auth/anonymous', async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/** Every try-on the page posts. */
function watchTryOns(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/process-image') && r.method() === 'POST') posts.push(r.url());
  });
  return posts;
}

/** Opens the page and sets both photos through the file inputs, before any pointer or key. */
async function photosWithoutAPointer(page: Page) {
  await page.goto('/');
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await page.getByTestId('upload-clothing-input').setInputFiles(PHOTOS.upper);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
}

test('a press while the user loads says so, then runs by itself once the user is there, once', async ({ page }) => {
  const signIn = await holdSignIn(page);
  const posts = watchTryOns(page);
  await photosWithoutAPointer(page);

  const tryButton = page.getByTestId('try-with-ai');
  await tryButton.click();
  const notice = page.getByTestId('try-notice');
  await expect(notice).toHaveText(MESSAGES.userLoading);
  // The session is starting (held): a second press while the first waits adds nothing.
  await expect.poll(signIn.asked).toBe(true);
  await tryButton.click();
  await expect(notice).toHaveText(MESSAGES.userLoading);
  expect(posts).toEqual([]);

  const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/anonymous'));
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  signIn.release();
  expect((await signedIn).status()).toBe(200);
  expect((await answered).status()).toBe(200);
  const panel = page.getByTestId('result-panel');
  await expect(panel).toHaveAttribute('data-status', 'success');
  await expect(panel.getByTestId('result-image')).toBeVisible();
  await expect(notice).toHaveCount(0);
  expect(posts).toHaveLength(1);
});

test.describe('when the session cannot start', () => {
  test.use({ allowedConsoleErrors: [/Failed to load resource/] });

  test('a press while the user loads says why, and sends nothing', async ({ page }) => {
    await page.route('**/api/auth/anonymous', (route) => route.abort('connectionrefused'));
    const posts = watchTryOns(page);
    await photosWithoutAPointer(page);

    await page.getByTestId('try-with-ai').click();
    const notice = page.getByTestId('try-notice');
    await expect(notice).toHaveText(WEB_MESSAGES.sessionFailed);
    // The photos stay, for when the page is loaded again.
    await expect(page.getByTestId('upload-person-preview')).toBeVisible();
    await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
    expect(posts).toEqual([]);
  });
});
