/**
 * Shared by the account specs: a browser context of its own per device, email sign-in by code
 * (read from the SMTP stand-in's mail), a demo purchase.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { MESSAGES } from '@aidressup/contract';
import { expect } from './fixtures';
import { codeFromMail, newestMail } from './mail';

export interface Device {
  context: BrowserContext;
  page: Page;
  /** Fails the test on console errors other than the allowed ones. */
  done: () => Promise<void>;
}

/**
 * A browser context of its own (no cookies shared), with fingerprinting failing so the device id
 * is the stored fallback id: `deviceId` makes several contexts the same device.
 */
export async function openDevice(
  browser: Browser,
  opts: {
    deviceId?: string;
    width?: number;
    allowedConsoleErrors?: RegExp[];
  } = {},
): Promise<Device> {
  const width = opts.width ?? 1366;
  const context = await browser.newContext({
    viewport: { width, height: width < 768 ? 844 : 900 },
  });
  await context.addInitScript((deviceId) => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
    if (deviceId && !localStorage.getItem('aidressup.deviceId')) localStorage.setItem('aidressup.deviceId', deviceId);
  }, opts.deviceId ?? null);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return {
    context,
    page,
    done: async () => {
      const unexpected = errors.filter((e) => !(opts.allowedConsoleErrors ?? []).some((re) => re.test(e)));
      await context.close();
      expect(unexpected, 'no console errors').toEqual([]);
    },
  };
}

export function randomHex(n: number): string {
  return Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

export async function openSignInDialog(page: Page) {
  const width = page.viewportSize()?.width ?? 1366;
  if (width < 768) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('list', { name: 'Mobile menu' }).getByRole('button', { name: 'Sign In' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
  }
  const dialog = page.getByTestId('sign-in-dialog');
  await expect(dialog.getByRole('heading', { name: 'Sign in with email' })).toBeVisible();
  return dialog;
}

/** In an open sign-in dialog: asks for a code for `email` and returns the mail that brought it. */
export async function requestCode(page: Page, email: string) {
  const dialog = page.getByTestId('sign-in-dialog');
  const since = new Date(Date.now() - 1000);
  await dialog.getByLabel('Email address').fill(email);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/auth/email/start'));
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  expect((await started).status()).toBe(200);
  await expect(dialog.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(dialog).toContainText(email);
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  const mail = await newestMail(email, { since });
  expect(mail.subject).toBe(MESSAGES.signInMailSubject);
  return mail;
}

/** Email sign-in through the dialog with the code from the mail; returns whether it merged. */
export async function signInWithCode(page: Page, email: string, { open = true } = {}): Promise<boolean> {
  if (open) await openSignInDialog(page);
  const mail = await requestCode(page, email);
  const dialog = page.getByTestId('sign-in-dialog');
  await dialog.getByLabel('6-digit code').fill(codeFromMail(mail));
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/auth/email/verify'));
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  const res = await verified;
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    merged: boolean;
    user: { email: string };
  };
  expect(body.user.email).toBe(email);
  await expect(dialog.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await expect(dialog).toContainText(email);
  return body.merged;
}

/** A demo purchase of the default plan (Monthly Pro, 50 credits) from the test-paywall button. */
export async function demoPurchase(page: Page) {
  await page.getByTestId('test-paywall').click();
  await page
    .getByTestId('paywall')
    .getByRole('button', { name: /Continue to Payment/ })
    .click();
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/billing/demo/checkout'));
  await page.getByTestId('demo-checkout').getByRole('button', { name: 'Complete demo purchase' }).click();
  expect((await bought).status()).toBe(200);
  await expect(page.getByTestId('purchase-complete')).toContainText('50 credits');
}
