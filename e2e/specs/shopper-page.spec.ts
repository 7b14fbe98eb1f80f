/**
 * What a shopper sees of the page's own furniture: the account chip (the specification's user-info
 * box, folded), truthful paywall badges, texts never cut off, the share page's icon, the sign-in
 * message, and a first paint the app does not hold back.
 */
import type { Browser, Page } from '@playwright/test';
import { codeFromMail, newestMail } from '../mail';
import { expect, openSignedIn, test, tryOnce, uploadBoth } from '../fixtures';

const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ar'] as const;
type Locale = (typeof LOCALES)[number];

async function useLocale(page: Page, locale: Locale, baseURL: string): Promise<void> {
  await page.context().addCookies([{ name: 'aidressup_locale', value: locale, url: baseURL }]);
  await page.addInitScript((l) => localStorage.setItem('aidressup.locale', l), locale);
}

const CHIP = {
  de: {
    summary: '0 Credits · 2 Gratis-Tests übrig',
    labels: ['Nutzer', 'Segment', 'Credits', 'Gratis-Tests', 'Gratis-Test übrig', 'Credits vorhanden'],
    yes: 'ja',
  },
  ar: {
    summary: '0 رصيد · تجربتان مجانيتان متبقيتان',
    labels: ['المستخدم', 'الفئة', 'الأرصدة', 'التجارب المجانية', 'لديه تجربة مجانية', 'لديه أرصدة'],
    yes: 'نعم',
  },
} as const;

for (const locale of ['de', 'ar'] as const) {
  test(`the account chip opens with the keyboard and stays translated, values isolated (${locale})`, async ({
    page,
    baseURL,
  }) => {
    await useLocale(page, locale, baseURL!);
    await openSignedIn(page);
    const box = page.getByTestId('user-info-box');
    const toggle = page.getByTestId('user-info-toggle');
    await expect(page.getByTestId('user-info-summary')).toHaveText(CHIP[locale].summary);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('user-id')).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('user-id')).toBeVisible();
    await expect(box.locator('dt')).toHaveText([...CHIP[locale].labels]);
    await expect(page.getByTestId('user-trials')).toHaveText('0 / 2');
    await expect(page.getByTestId('user-has-free-trial')).toHaveText(CHIP[locale].yes);
    await expect(page.getByTestId('user-segment')).toHaveText('trial');

    // Each value is isolated from the text around it; ids and counts read left to right even in a
    // right-to-left page: "0 / 2" is painted with the 0 on the left.
    const values = await page.evaluate(() =>
      ['user-id', 'user-trials', 'user-credits', 'user-has-free-trial'].map((id) => {
        const el = document.querySelector(`[data-testid="${id}"]`)!;
        const style = getComputedStyle(el);
        const text = el.firstChild!;
        const rect = (from: number) => {
          const range = document.createRange();
          range.setStart(text, from);
          range.setEnd(text, from + 1);
          return range.getBoundingClientRect().left;
        };
        const length = (text.textContent ?? '').length;
        return {
          id,
          pageDir: document.documentElement.dir,
          isolated: style.unicodeBidi === 'isolate',
          direction: style.direction,
          firstLeftOfLast: rect(0) < rect(length - 1),
        };
      }),
    );
    for (const v of values) expect(v.isolated, v.id).toBe(true);
    expect(values[0]!.pageDir).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    for (const v of values.slice(0, 2)) {
      expect(v.direction, v.id).toBe('ltr');
      expect(v.firstLeftOfLast, v.id).toBe(true);
    }

    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('user-id')).toBeHidden();
  });
}

test('?debug=1 opens the account box with every field, and the Test paywall button stays secondary', async ({
  page,
}) => {
  await openSignedIn(page, '/?debug=1');
  await expect(page.getByTestId('user-info-toggle')).toHaveAttribute('aria-expanded', 'true');
  for (const id of [
    'user-id',
    'user-segment',
    'user-credits',
    'user-trials',
    'user-has-free-trial',
    'user-has-credits',
  ])
    await expect(page.getByTestId(id)).toBeVisible();
  // The Test paywall button is smaller than the page's main button and not filled.
  const test = page.getByTestId('test-paywall');
  const main = page.getByTestId('try-with-ai');
  const [t, m] = await Promise.all([test.boundingBox(), main.boundingBox()]);
  expect(t!.height).toBeLessThan(m!.height);
  expect(await test.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
});

async function badges(page: Page): Promise<string[]> {
  await page.getByTestId('test-paywall').click();
  const list = page.getByTestId('paywall').getByRole('list', { name: 'Why it is safe to pay' });
  await expect(list).toBeVisible();
  return list.getByRole('listitem').allTextContents();
}

test('the paywall’s trust badges say only what is true: demo billing over http', async ({ page }) => {
  await openSignedIn(page);
  expect(await badges(page)).toEqual(['Demo — no charge', 'Instant Activation']);
});

test.describe('with a payment provider configured', () => {
  // The page starts loading Paddle.js when the paywall opens; offline, that load fails (and logs so).
  test.use({ allowedConsoleErrors: [/ERR_NAME_NOT_RESOLVED|ERR_FAILED|Paddle\.js failed to load/] });

  test('the paywall’s trust badges with a payment provider: a secure payment, still no SSL claim over http', async ({
    page,
  }) => {
    await page.route('**/api/config', async (route) => {
      const res = await route.fetch();
      const config = (await res.json()) as { billing: object };
      config.billing = { provider: 'paddle', environment: 'sandbox', clientToken: 'test_0123456789abcdef0123456' };
      await route.fulfill({ response: res, json: config });
    });
    await page.route('https://cdn.paddle.com/**', (route) => route.abort());
    await openSignedIn(page);
    expect(await badges(page)).toEqual(['Secure Payment', 'Instant Activation']);
  });
});

test('no text is cut off, in any language, on a phone and a laptop; the optional bottom leaves no gap', async ({
  browser,
  baseURL,
}) => {
  for (const locale of LOCALES) {
    for (const width of [390, 1366]) {
      const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
      });
      await useLocale(page, locale, baseURL!);
      await page.goto('/');
      await expect(page.getByTestId('upload-bottom')).toBeVisible();
      const clipped = await page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter((el) => {
            const s = getComputedStyle(el);
            const clamps = s.textOverflow === 'ellipsis' || (s.webkitLineClamp !== 'none' && s.webkitLineClamp !== '');
            return clamps && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
          })
          .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 60)}`),
      );
      expect(clipped, `${locale} at ${width} px`).toEqual([]);

      const [person, bottom] = await Promise.all([
        page.getByTestId('upload-person').boundingBox(),
        page.getByTestId('upload-bottom').boundingBox(),
      ]);
      if (width >= 1280) {
        // Three cards in one row: the bottom beside the others, no blank cell.
        expect(Math.abs(bottom!.y - person!.y), `${locale} at ${width} px`).toBeLessThan(2);
      } else {
        expect(bottom!.y).toBeGreaterThan(person!.y);
      }
      await context.close();
    }
  }
});

test('a share page links an icon that is served (no 404)', async ({ page, browser }) => {
  await openSignedIn(page);
  await uploadBoth(page);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
  await page.getByTestId('try-with-ai').click();
  const { tryonId } = (await (await answered).json()) as { tryonId: string };
  await expect(page.getByTestId('result-image')).toBeVisible();
  const share = await page.request.post(`/api/tryons/${tryonId}/share`);
  expect(share.status()).toBe(200);
  const { url } = (await share.json()) as { url: string };

  const guest = await browser.newPage();
  const missing: string[] = [];
  guest.on('response', (r) => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await guest.goto(url);
  const icon = await guest.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toBeTruthy();
  const iconResponse = await guest.request.get(new URL(icon!, url).toString());
  expect(iconResponse.status()).toBe(200);
  expect(iconResponse.headers()['content-type']).toMatch(/image\/svg\+xml/);
  // Once the browser has asked for everything (the icon included) and the network is quiet,
  // nothing it asked for was missing.
  await guest.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
  await guest.close();
});

async function emailSignIn(page: Page, email: string): Promise<{ merged: boolean; text: string }> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByTestId('sign-in-dialog');
  const since = new Date(Date.now() - 1000);
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  await dialog.getByLabel('6-digit code').fill(codeFromMail(await newestMail(email, { since })));
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/auth/email/verify'));
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  const body = (await (await verified).json()) as { merged: boolean };
  await expect(dialog.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  return { merged: body.merged, text: (await dialog.getByTestId('sign-in-merged').textContent()) ?? '' };
}

async function device(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
  });
  await openSignedIn(page);
  return page;
}

test('the sign-in message says the device’s credits and results joined the account only when some did', async ({
  browser,
}) => {
  const email = `merge-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const saved = 'Your credits and results are saved to your account, on any device where you sign in.';
  const merged = "This device's credits and results were added to your account.";

  const first = await device(browser);
  expect(await emailSignIn(first, email)).toEqual({ merged: false, text: saved });

  // A device with nothing of its own joins the account: nothing was added, and the page does not say so.
  const empty = await device(browser);
  expect(await emailSignIn(empty, email)).toEqual({ merged: true, text: saved });

  // A device with a result: that result joins the account, and the page says so.
  const withResult = await device(browser);
  await uploadBoth(withResult);
  await tryOnce(withResult);
  expect(await emailSignIn(withResult, email)).toEqual({ merged: true, text: merged });

  for (const p of [first, empty, withResult]) await p.context().close();
});

test('the first paint is the only largest-paint candidate, painted before the app’s script runs', async ({
  browser,
}) => {
  for (const width of [390, 1366]) {
    const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
      const w = window as unknown as { lcp: { t: number; tag: string; text: string }[] };
      w.lcp = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as PerformanceEntry[] & { element?: Element | null }[])
          w.lcp.push({
            t: e.startTime,
            tag: (e as { element?: Element | null }).element?.tagName ?? '',
            text: ((e as { element?: Element | null }).element?.textContent ?? '').trim(),
          });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const served = await (await page.request.get('/')).text();
    expect(served).toContain('See yourself in any outfit');
    await page.goto('/');
    await expect(page.getByTestId('try-with-ai')).toBeVisible();
    await expect(page.getByTestId('user-info-summary')).toBeVisible();
    const seen = await page.evaluate(() => ({
      lcp: (window as unknown as { lcp: { t: number; tag: string; text: string }[] }).lcp,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      appStart: performance.getEntriesByName('aidressup:app-start')[0]?.startTime ?? -1,
    }));
    // One candidate: the static heading of the first paint. The app redraws it at the same size,
    // which is no new candidate.
    expect(seen.lcp, `at ${width} px`).toHaveLength(1);
    expect(seen.lcp[0]).toMatchObject({ tag: 'H1', text: 'See yourself in any outfit before you buy' });
    expect(Math.abs(seen.lcp[0]!.t - seen.fcp)).toBeLessThan(1);
    // The app's script started only after that paint.
    expect(seen.fcp).toBeGreaterThan(0);
    expect(seen.appStart).toBeGreaterThanOrEqual(seen.fcp);
    await context.close();
  }
});

test('in Arabic no English first paint is shown: the app starts at once and paints in Arabic', async ({
  page,
  baseURL,
}) => {
  await useLocale(page, 'ar', baseURL!);
  const painted: string[] = [];
  await page.exposeFunction('reportPaint', (text: string) => painted.push(text));
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        void (window as unknown as { reportPaint: (t: string) => void }).reportPaint(
          ((e as { element?: Element | null }).element?.textContent ?? '').trim(),
        );
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await openSignedIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('شاهد نفسك');
  expect(painted.length).toBeGreaterThan(0);
  for (const text of painted) expect(text).not.toContain('See yourself');
});
