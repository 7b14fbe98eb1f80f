import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { MERCHANT_OPERATOR_EMAIL, OPERATOR_EMAIL } from './mail';

/**
 * Browser tests against the REAL built server (`node apps/server/dist/server.js`), which also
 * serves the built web app, with a fresh data folder per run and the built-in local engine.
 * Run `npm run test:e2e` from the repository root (it builds first).
 *
 * Environment:
 * - E2E_PORT (default 3100): the port the server listens on.
 * - E2E_SERVER_ENV: extra server environment as JSON, e.g. '{"DEFAULT_ENGINE":"local"}'.
 * - E2E_SMTP_PORT (default 3125): the port of the SMTP stand-in (global-setup.ts) the server mails
 *   through; each mail it receives is saved as JSON in E2E_MAIL_DIR (a temporary folder), where
 *   specs read sign-in codes and links (mail.ts).
 * - CHROMIUM_PATH (default /usr/bin/chromium).
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3125);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the browser nothing here can run: say so plainly (on CI and elsewhere) instead of
// Playwright's launch error in every test.
if (!fs.existsSync(chromiumPath)) {
  throw new Error(
    `Chromium not found at ${chromiumPath}: the browser tests need it. Install Debian's chromium package or set CHROMIUM_PATH.`,
  );
}

// The config is evaluated in the runner and in every worker: create the data folder once.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-e2e-'));
}
if (!process.env.E2E_MAIL_DIR) {
  process.env.E2E_MAIL_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-e2e-mail-'));
}

const extraEnv = process.env.E2E_SERVER_ENV ? (JSON.parse(process.env.E2E_SERVER_ENV) as Record<string, string>) : {};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  outputDir: '../test-results/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { outputFolder: '../playwright-report', open: 'never' }]] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1366, height: 900 },
    // English unless a test asks for another language (the page follows the browser's languages).
    locale: 'en-US',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node apps/server/dist/server.js',
    cwd: repoRoot,
    url: `${baseURL}/api/config`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      FREE_TRIALS_LIMIT: '2',
      LOG_LEVEL: 'warn',
      // Every test starts as a new anonymous user from the same address.
      NEW_USERS_PER_IP_PER_DAY: '100000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
      RATE_LIMIT_TRYON_PER_MINUTE: '100000',
      ENGINE_LINE_TICKETS_PER_ADDRESS: '1000',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
      RATE_LIMIT_EMAIL_PER_MINUTE: '100000',
      // Sign-in mail goes to the SMTP stand-in (plain SMTP on loopback).
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'AI Dress Up <no-reply@aidressup.app>',
      // The operator console (specs/operator.spec.ts): one operator address, used by no other spec;
      // a shopper's first report in 30 days is refunded at once, the next ones wait for it.
      // The shop widget's spec (specs/embed.spec.ts) has an operator of its own.
      ADMIN_EMAILS: `${OPERATOR_EMAIL},${MERCHANT_OPERATOR_EMAIL}`,
      AUTO_REFUND_REPORTS: '1',
      ...extraEnv,
    },
  },
});
