import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, openSignedIn, test, tryOnce, uploadBoth, userBox } from '../fixtures';
import { codeFromMail, MERCHANT_OPERATOR_EMAIL, newestMail, OPERATOR_EMAIL } from '../mail';

/*
 * The operator console at /admin (docs/operations.md) and the shoppers' reports. The e2e server
 * lists OPERATOR_EMAIL in ADMIN_EMAILS and refunds a shopper's first report at once
 * (AUTO_REFUND_REPORTS=1); later ones wait in the queue. The tests of this file run in order (one
 * worker), so the operator's sign-in mails never cross.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/shots/operator';

// The console's first call answers 401/403 until the operator has signed in: the browser logs it.
test.use({ allowedConsoleErrors: [/status of 40[13]/] });

/**
 * A new browser context for the operator, signed in to the console by email code (the second
 * operator's address spares the first one's hourly allowance of sign-in mails).
 */
async function operatorPage(browser: Browser, width = 1366, email = OPERATOR_EMAIL): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
  });
  await page.goto('/admin');
  const gate = page.getByTestId('admin-gate');
  await expect(gate.getByRole('heading', { name: 'Sign in to the operator console' })).toBeVisible();
  await gate.getByRole('button', { name: 'Sign in with email' }).click();
  const dialog = page.getByTestId('sign-in-dialog');
  // The code mailed for this sign-in, not an earlier one to the same address (a run's first sign-in, or a retried test's).
  const since = new Date();
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  await dialog.getByLabel('6-digit code').fill(codeFromMail(await newestMail(email, { since })));
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  return page;
}

/** In the console: finds the shopper by id and opens the account's page. */
async function openShopper(page: Page, userId: string) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Find an account').fill(userId);
  const row = page.getByTestId('user-row').filter({ hasText: userId });
  await expect(row).toHaveCount(1);
  await row.getByRole('link').click();
  await expect(page.getByTestId('user-title')).toHaveText('Anonymous account');
}

test('a shopper is not an operator: /admin asks an anonymous visitor to sign in, and nothing links to it', async ({
  page,
}) => {
  await openSignedIn(page);
  await expect(page.locator('a[href^="/admin"]')).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByTestId('admin-gate')).toContainText('Sign in to the operator console');
  await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);
});

test('an operator signs in by email code, finds a shopper and grants credits with a reason; the shopper sees them', async ({
  page,
  browser,
}) => {
  const shopperId = await openSignedIn(page);
  await expect(userBox(page).credits).toHaveText('0');

  const op = await operatorPage(browser);
  await openShopper(op, shopperId);
  await expect(op.getByTestId('admin-user-credits')).toHaveText('0');
  await op.getByRole('button', { name: 'Add credits' }).click();
  const dialog = op.getByTestId('reason-dialog');
  await expect(dialog.getByRole('heading', { name: 'Add credits' })).toBeVisible();
  await dialog.getByLabel('Credits').fill('5');
  // No reason: refused in the dialog, nothing sent.
  await dialog.getByRole('button', { name: 'Add credits' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Say why');
  await dialog.getByLabel('Reason').fill('Goodwill after ticket 42');
  await dialog.getByRole('button', { name: 'Add credits' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(op.getByRole('status').filter({ hasText: 'Credits added.' })).toBeVisible();
  await expect(op.getByTestId('admin-user-credits')).toHaveText('5');
  const entry = op.getByTestId('ledger-row').first();
  await expect(entry).toContainText('+5');
  await expect(entry).toContainText('Goodwill after ticket 42');
  await expect(entry).toContainText(OPERATOR_EMAIL);

  // The ledger as CSV.
  const download = op.waitForEvent('download');
  await op.getByTestId('ledger-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`ledger-${shopperId}.csv`);

  // The audit log has it, filterable by action.
  await op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await op.getByLabel('Action').selectOption('credits.add');
  await expect(op.getByTestId('audit-row').filter({ hasText: 'Goodwill after ticket 42' })).toHaveCount(1);
  await op.context().close();

  await page.reload();
  await expect(userBox(page).credits).toHaveText('5');
});

test('a shopper reports results (the first is given back at once, the next waits) and the operator refunds it', async ({
  page,
  browser,
}) => {
  const shopperId = await openSignedIn(page);
  await expect(userBox(page).trials).toHaveText('0 / 2');
  await uploadBoth(page);
  await tryOnce(page);
  await expect(userBox(page).trials).toHaveText('1 / 2');

  // From the result panel: refunded at once, the free trial comes back.
  await page.getByTestId('result-report').click();
  let dialog = page.getByTestId('report-dialog');
  await expect(dialog.getByRole('heading', { name: 'Report a problem' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Wrong garment' }).check();
  await page.screenshot({ path: `${SHOTS}/report-dialog-1366.png` });
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByTestId('report-outcome')).toHaveText("We've given back your free trial.");
  await expect(userBox(page).trials).toHaveText('0 / 2');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('result-reported')).toHaveText('Reported: given back');

  // A second result, reported from My Gallery: an operator will look at it.
  await tryOnce(page);
  await page.goto('/gallery');
  const items = page.getByTestId('gallery-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(1).getByTestId('gallery-item-report')).toHaveText('Reported: given back');
  await items.first().getByTestId('result-report').click();
  dialog = page.getByTestId('report-dialog');
  await dialog.getByRole('radio', { name: 'The garment is badly placed' }).check();
  await dialog.getByLabel('Anything to add? (optional)').fill('The sleeve is on my neck');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByTestId('report-outcome')).toContainText('An operator will look at it');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(items.first().getByTestId('gallery-item-report')).toHaveText('Reported: under review');
  await expect(userBox(page).trials).toHaveText('1 / 2');

  // The operator's queue: the result on click, refunded in one click.
  const op = await operatorPage(browser);
  await op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' }).click();
  const report = op.getByTestId('report-item').filter({ hasText: shopperId });
  await expect(report).toHaveCount(1);
  await expect(report).toContainText('Garment badly placed');
  await expect(report).toContainText('The sleeve is on my neck');
  await expect(report.getByTestId('result-thumbnail')).toHaveCount(0);
  const viewed = op.waitForResponse((r) => r.url().includes('/api/admin/tryons/') && r.url().endsWith('/result'));
  await report.getByTestId('show-result').click();
  expect((await viewed).status()).toBe(200);
  await expect(report.getByTestId('result-thumbnail')).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/reports-1366.png`, fullPage: true });
  await report.getByRole('button', { name: 'Refund' }).click();
  await expect(op.getByTestId('reports-status')).toContainText('Refunded: Garment badly placed');
  await expect(report).toHaveCount(0);
  await op.context().close();

  await page.reload();
  await expect(page.getByTestId('gallery-item').first().getByTestId('gallery-item-report')).toHaveText(
    'Reported: given back',
  );
  await expect(userBox(page).trials).toHaveText('0 / 2');
});

test('the overview draws its charts from the statistics, with engine health and totals', async ({ browser }) => {
  const op = await operatorPage(browser);
  await expect(op.getByTestId('total-credits')).toHaveText(/^\d[\d,]*$/);
  await expect(op.getByTestId('total-plans')).toHaveText(/^\d[\d,]*$/);
  await expect(op.getByTestId('engine-health').getByRole('listitem').first()).toBeVisible();
  // The product runs on its embedded defaults here: no PHOTO_KEY, so the console says where the key lies.
  await expect(op.getByTestId('photo-key-health')).toContainText('kept photos sealed with a key stored beside them');
  // Each engine over the last hour and day: earlier tests made try-ons on the built-in engine just now.
  const windows = op.getByTestId('engine-windows');
  await expect(windows.getByRole('row', { name: /local Last hour/ })).toBeVisible();
  await expect(windows.getByRole('row', { name: /local Last day/ })).toContainText(/\d+ %/);
  for (const id of ['chart-tryons', 'chart-timing', 'chart-growth', 'chart-reports']) {
    const canvas = op.getByTestId(id).locator('canvas');
    await expect(canvas).toHaveCount(1);
    await expect(canvas).toHaveAttribute('role', 'img');
  }
  // The try-ons chart has data (earlier tests made some today) and something is drawn on it.
  const tryons = op.getByTestId('chart-tryons');
  await tryons.getByText('Show the figures').click();
  await expect(tryons.getByTestId('chart-row')).toHaveCount(30);
  const painted = await tryons.locator('canvas').evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n += 1;
    return n;
  });
  expect(painted).toBeGreaterThan(1000);
  // What the try-ons earned and cost, by engine, and each engine's price with where it comes from.
  await expect(op.getByTestId('economics-totals').getByRole('row', { name: /^local \d/ })).toBeVisible();
  await expect(
    op.getByTestId('engine-prices').getByRole('row', { name: /^local \$0\.00 \$0\.00 Own hardware/ }),
  ).toBeVisible();
  await op.getByLabel('Period').selectOption('7');
  await expect(tryons.getByTestId('chart-row')).toHaveCount(7);
  await op.screenshot({ path: `${SHOTS}/overview-1366.png`, fullPage: true });
  await op.context().close();
});

/** axe's serious and critical findings on the page as it is (none expected). */
async function axeFindings(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What sticks out of the window sideways (nothing, when the page fits a phone). */
const overflows = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return Array.from(document.querySelectorAll('body *'))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > width + 1 && el.parentElement?.closest('[role="region"], nav') == null,
      )
      .slice(0, 5)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)}: ${el.textContent?.slice(0, 40)}`,
      );
  });

test('the console and the report dialog fit a desktop and a phone (screenshots in E2E_SHOTS_DIR)', async ({
  page,
  browser,
}) => {
  // Three try-ons, and five console pages at two widths each scanned by axe: a long walk (it took
  // past 90 s on a loaded machine, the last try-on 2 s from its end).
  test.setTimeout(180_000);
  // A shopper with a result given back and one waiting in the queue.
  const shopperId = await openSignedIn(page);
  await uploadBoth(page);
  for (const reason of ['Wrong garment', 'Something else']) {
    await tryOnce(page);
    await page.getByTestId('result-report').click();
    const dialog = page.getByTestId('report-dialog');
    await dialog.getByRole('radio', { name: reason }).check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog.getByTestId('report-outcome')).toBeVisible();
    await page.screenshot({
      path: `${SHOTS}/report-outcome-${reason === 'Wrong garment' ? 'refunded' : 'pending'}.png`,
    });
    await dialog.getByRole('button', { name: 'Done' }).click();
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/gallery');
  await expect(page.getByTestId('gallery-item')).toHaveCount(2);
  expect(await overflows(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/gallery-reported-390.png`, fullPage: true });

  for (const width of [1366, 390]) {
    const op = await operatorPage(browser, width);
    await expect(op.getByTestId('chart-tryons').locator('canvas')).toBeVisible();
    expect(await overflows(op)).toEqual([]);
    expect(await axeFindings(op, `overview ${width}`)).toEqual([]);
    await op.screenshot({ path: `${SHOTS}/overview-${width}.png`, fullPage: true });

    await openShopper(op, shopperId);
    await op.getByTestId('tryon-row').first().getByTestId('show-result').click();
    await expect(op.getByTestId('result-thumbnail')).toBeVisible();
    expect(await overflows(op)).toEqual([]);
    expect(await axeFindings(op, `user ${width}`)).toEqual([]);
    await op.evaluate(() => window.scrollTo(0, 0));
    await op.screenshot({ path: `${SHOTS}/user-${width}.png`, fullPage: true });
    await op.getByRole('button', { name: 'Add credits' }).click();
    await op.getByTestId('reason-dialog').getByLabel('Reason').fill('Screenshot');
    await op.screenshot({ path: `${SHOTS}/credits-dialog-${width}.png` });
    expect(await axeFindings(op, `credits dialog ${width}`)).toEqual([]);
    await op.keyboard.press('Escape');

    await op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' }).click();
    const report = op.getByTestId('report-item').filter({ hasText: shopperId });
    await report.getByTestId('show-result').click();
    await expect(report.getByTestId('result-thumbnail')).toBeVisible();
    expect(await overflows(op)).toEqual([]);
    expect(await axeFindings(op, `reports ${width}`)).toEqual([]);
    await op.evaluate(() => window.scrollTo(0, 0));
    await op.screenshot({ path: `${SHOTS}/reports-${width}.png`, fullPage: true });

    await op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(op.getByTestId('audit-row').first()).toBeVisible();
    expect(await axeFindings(op, `audit ${width}`)).toEqual([]);
    await op.screenshot({ path: `${SHOTS}/audit-${width}.png`, fullPage: true });
    await op.context().close();
  }

  await page.goto('/');
  await uploadBoth(page);
  await tryOnce(page);
  await page.getByTestId('result-report').click();
  await page.getByTestId('report-dialog').getByRole('radio', { name: 'My body or face changed' }).check();
  await page.screenshot({ path: `${SHOTS}/report-dialog-390.png` });
  expect(await axeFindings(page, 'report dialog 390')).toEqual([]);
});

test('an operator adds a merchant: an origin that is not https://host[:port] is refused in the form, nothing sent', async ({
  browser,
}) => {
  const op = await operatorPage(browser, 1366, MERCHANT_OPERATOR_EMAIL);
  await op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Merchants' }).click();
  const posts: string[] = [];
  op.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/admin/merchants') posts.push(r.url());
  });
  await op.getByLabel('Shop name').fill('Origin Shop');
  const origins = op.getByLabel('Allowed origins (one per line)');
  for (const bad of ['https://*.example.com', 'https://shop.example/path', 'http://shop.example']) {
    await origins.fill(`https://good.example\n${bad}`);
    await op.getByRole('button', { name: 'Create merchant' }).click();
    await expect(op.getByRole('alert')).toContainText(`“${bad}” is not an allowed origin`);
  }
  await op.screenshot({ path: `${SHOTS}/merchant-origin-refused.png`, fullPage: true });
  expect(posts).toEqual([]);

  await origins.fill('https://good.example\nhttp://localhost:8080');
  await op.getByRole('button', { name: 'Create merchant' }).click();
  await expect(op.getByTestId('merchants')).toContainText('Origin Shop');
  await expect(op.getByTestId('merchants')).toContainText('http://localhost:8080');
  expect(posts).toHaveLength(1);
});
