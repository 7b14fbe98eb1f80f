import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PHOTOS = {
  person: path.join(here, 'fixtures/person.jpg'),
  upper: path.join(here, 'fixtures/garment-upper.jpg'),
  lower: path.join(here, 'fixtures/garment-lower.jpg'),
  /**
   * A person photo used as the garment: the built-in engine refuses it as worn (GARMENT_WORN). One of
   * the engine's openly licensed person photos (packages/engine/test-fixtures/LICENSES.md, MIT).
   */
  worn: path.join(here, '../packages/engine/test-fixtures/person/woman_blouse_skirt.jpg'),
};

const catalogs = path.join(here, '../packages/contract/catalogs');
/** A message as the catalog of `locale` writes it (the tests check the page against the real catalogs). */
export function catalogMessage(locale: string, id: string, bundle = 'app'): string {
  const dir = path.join(catalogs, bundle, locale);
  for (const file of fs.readdirSync(dir)) {
    const catalog = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, string>;
    if (id in catalog) return catalog[id]!;
  }
  throw new Error(`no message ${id} in ${locale}`);
}

export interface Options {
  /**
   * Use the browser's real FingerprintJS device id. Chromium gives every test context the same
   * fingerprint, hence the same device: each context (having no session cookie) is still a new
   * user, but once one of them has used the free trials, later ones start without any. By default
   * tests set the documented test hook `window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true` so each
   * test gets its own fallback device id (and its own free trials).
   */
  realFingerprint: boolean;
  /** Console errors a test expects (for example the browser's log line for an HTTP 402). */
  allowedConsoleErrors: RegExp[];
}

export const test = base.extend<Options>({
  realFingerprint: [false, { option: true }],
  allowedConsoleErrors: [[], { option: true }],
  page: async ({ page, realFingerprint, allowedConsoleErrors }, use) => {
    if (!realFingerprint) {
      await page.addInitScript(() => {
        window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
      });
    }
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    await use(page);
    const unexpected = errors.filter((e) => !allowedConsoleErrors.some((re) => re.test(e)));
    expect(unexpected, 'no console errors').toEqual([]);
  },
});

export { expect };

declare global {
  interface Window {
    __AIDRESSUP_TEST_FAIL_FINGERPRINT__?: boolean;
  }
}

/** Opens a page and waits until the anonymous sign-in has put a user in the user box. */
export async function openSignedIn(page: Page, url = '/'): Promise<string> {
  const signIn = page.waitForResponse(
    (r) => r.url().endsWith('/api/auth/anonymous') && r.request().method() === 'POST',
  );
  await page.goto(url);
  const res = await signIn;
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { user: { id: string } };
  await expect(page.getByTestId('user-id')).toHaveText(body.user.id.slice(0, 8));
  return body.user.id;
}

/** Text found only in the device-id code (features/session/utils/device-id.ts: its warning when fingerprinting fails). */
export const DEVICE_ID_CODE = 'Device fingerprint unavailable';
/** Text found only in FingerprintJS (the address of its monitoring, which the app turns off). */
const FINGERPRINTJS_CODE = 'openfpcdn';

export interface WatchedScript {
  url: string;
  /** When it was asked for and when it had arrived, in ms since 1970 (as `performance.timeOrigin`). */
  askedAt: number;
  arrivedAt: number;
  deviceIdCode: boolean;
  fingerprintJs: boolean;
}

/** Every script the page loads from now on, with what it carries and when it was asked for. */
export function watchScripts(page: Page): WatchedScript[] {
  const scripts: WatchedScript[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    const timing = request.timing();
    // The body is fetched again (the assets are public and unchanging): the browser may have dropped its copy.
    // A script that finishes as the test ends is not read (its context is gone): the tests wait for
    // the scripts they check, so one missing still fails them.
    void page.request
      .get(request.url())
      .then(async (response) => {
        const body = await response.text();
        scripts.push({
          url: new URL(request.url()).pathname,
          askedAt: timing.startTime,
          arrivedAt: timing.startTime + timing.responseEnd,
          deviceIdCode: body.includes(DEVICE_ID_CODE),
          fingerprintJs: body.includes(FINGERPRINTJS_CODE),
        });
      })
      .catch(() => undefined);
  });
  return scripts;
}

/**
 * When the app started (main.tsx marks it, after the first paint or at most 500 ms of waiting for
 * it), in ms since 1970: the session starts after it.
 */
export function appStartedAt(page: Page): Promise<number> {
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('aidressup:app-start')[0];
    if (!mark) throw new Error('the app has not started');
    return performance.timeOrigin + mark.startTime;
  });
}

/** When the page's first contentful paint happened, in ms since 1970. */
export function firstPaintAt(page: Page): Promise<number> {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    if (!paint) throw new Error('no first contentful paint');
    return performance.timeOrigin + paint.startTime;
  });
}

export async function uploadBoth(page: Page, garment: string = PHOTOS.upper): Promise<void> {
  await page.getByTestId('upload-person-input').setInputFiles(PHOTOS.person);
  await expect(page.getByTestId('upload-person-preview')).toBeVisible();
  await page.getByTestId('upload-clothing-input').setInputFiles(garment);
  await expect(page.getByTestId('upload-clothing-preview')).toBeVisible();
}

/** Runs one try-on through the real engine and waits for the result. */
export async function tryOnce(page: Page): Promise<void> {
  const done = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const res = await done;
  expect(res.status(), await res.text()).toBe(200);
  await expect(page.getByTestId('result-image')).toBeVisible();
}

export function userBox(page: Page) {
  return {
    id: page.getByTestId('user-id'),
    segment: page.getByTestId('user-segment'),
    credits: page.getByTestId('user-credits'),
    trials: page.getByTestId('user-trials'),
    hasFreeTrial: page.getByTestId('user-has-free-trial'),
    hasCredits: page.getByTestId('user-has-credits'),
  };
}
