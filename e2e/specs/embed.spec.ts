import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { catalogMessage, expect, PHOTOS, test } from '../fixtures';
import { codeFromMail, MERCHANT_OPERATOR_EMAIL, newestMail } from '../mail';

/*
 * The "Try it on" widget (docs/embed.md) on a test shop page served from a second local origin:
 * the product runs at http://127.0.0.1:<E2E_PORT>; the shop at http://localhost:<shop port>,
 * which the merchant allows. The same page at http://127.0.0.1:<shop port> is another origin,
 * not on the list: the browser must refuse to show the frame there (frame-ancestors).
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/shots/embed';
test.describe.configure({ mode: 'serial' });
// The page on an origin not on the list: the browser logs its refusal to show the frame.
// A shop without credits: the browser logs the frame's 402.
test.use({ allowedConsoleErrors: [/frame-ancestors|status of 402/] });

let shop: http.Server;
let shopPort = 0;
let app = '';
let merchant: { id: string; publishableKey: string };
let emptyMerchant: { id: string; publishableKey: string };
let api: APIRequestContext;

function shopPage(key: string, lang: string, garment = '/garment.jpg'): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test shop</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem">
<h1>Linen shirt</h1>
<img src="${garment}" alt="Linen shirt" width="240">
<p><a href="#details">Details</a></p>
<button type="button" data-aidressup-garment="${garment}" data-aidressup-category="upper_body">Try it on</button>
<script src="${app}/embed.js" data-key="${key}" async></script>
<script>
  window.__events = [];
  window.addEventListener('message', function (e) {
    if (e.data && e.data.type === 'aidressup:result') window.__events.push({ origin: e.origin, data: e.data });
  });
  document.addEventListener('aidressup:result', function () { window.__events.push('dom-event'); });
</script>
</body></html>`;
}

/** Signs the widget's operator in through the API (email code) in `request`'s cookie jar. */
async function signInOperator(request: APIRequestContext): Promise<void> {
  const anon = await request.post('/api/auth/anonymous', {
    data: { deviceId: `device_embed_${Date.now().toString(36)}`, deviceInfo: {} },
  });
  expect(anon.status(), await anon.text()).toBe(200);
  // The code mailed for this sign-in, not an earlier one to the same address (a run's first sign-in, or a retried test's).
  const since = new Date();
  const start = await request.post('/api/auth/email/start', { data: { email: MERCHANT_OPERATOR_EMAIL } });
  expect(start.status(), await start.text()).toBe(200);
  const code = codeFromMail(await newestMail(MERCHANT_OPERATOR_EMAIL, { since }));
  const verify = await request.post('/api/auth/email/verify', { data: { email: MERCHANT_OPERATOR_EMAIL, code } });
  expect(verify.status(), await verify.text()).toBe(200);
}

async function credits(request: APIRequestContext): Promise<number> {
  const res = await request.get(`/api/admin/merchants/${merchant.id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { merchant: { credits: number } }).merchant.credits;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  app = new URL(baseURL!).origin;
  api = await playwright.request.newContext({ baseURL: app });
  const garment = fs.readFileSync(PHOTOS.upper);
  const worn = fs.readFileSync(PHOTOS.worn);
  shop = http.createServer((req, res) => {
    if (req.url === '/garment.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(garment);
    } else if (req.url === '/worn.jpg') {
      // A product photo of the garment being worn: the built-in engine refuses it.
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(worn);
    } else if (req.url?.split('?')[0] === '/') {
      // The shop page's own language (`?lang=de`): the frame follows it. `?shop=empty`: a merchant without
      // credits. `?garment=worn`: a product whose photo shows the garment being worn.
      const query = new URL(req.url, 'http://shop').searchParams;
      const lang = /^[a-zA-Z-]{2,10}$/.test(query.get('lang') ?? '') ? query.get('lang')! : 'en';
      const key = query.get('shop') === 'empty' ? emptyMerchant.publishableKey : merchant.publishableKey;
      const product = query.get('garment') === 'worn' ? '/worn.jpg' : '/garment.jpg';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(key, lang, product));
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopPort = (shop.address() as AddressInfo).port;

  await signInOperator(api);
  const created = await api.post('/api/admin/merchants', {
    data: { name: 'Test Shop', allowedOrigins: [`http://localhost:${shopPort}`], billing: 'merchant', credits: 3 },
  });
  expect(created.status(), await created.text()).toBe(200);
  merchant = ((await created.json()) as { merchant: typeof merchant }).merchant;
  const empty = await api.post('/api/admin/merchants', {
    data: { name: 'Empty Shop', allowedOrigins: [`http://localhost:${shopPort}`], billing: 'merchant', credits: 0 },
  });
  expect(empty.status(), await empty.text()).toBe(200);
  emptyMerchant = ((await empty.json()) as { merchant: typeof merchant }).merchant;
});

test.afterAll(async () => {
  await api.dispose();
  await new Promise((resolve) => shop.close(resolve));
});

const allowedShop = () => `http://localhost:${shopPort}/`;
const frameOf = (page: Page) => page.frameLocator('iframe[src*="/embed?"]');

test('a shopper clicks “Try it on” on the shop, adds a photo and gets a result paid by the merchant; the page hears of it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const before = await credits(api);
  await page.goto(allowedShop());
  await page.waitForFunction(() => 'AIDressUp' in window);

  const clickedAt = Date.now();
  await page.getByRole('button', { name: 'Try it on' }).click();
  const dialog = page.getByRole('dialog', { name: 'Try it on' });
  await expect(dialog).toBeVisible();
  const frame = frameOf(page);
  await expect(frame.getByTestId('embed-garment')).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Upload a photo' })).toBeEnabled();
  const readyMs = Date.now() - clickedAt;
  test.info().annotations.push({ type: 'click to ready frame', description: `${readyMs} ms` });
  console.log(`embed: click to ready frame ${readyMs} ms`);
  await expect(frame.getByText('At Test Shop')).toBeVisible();
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/overlay-1366.png` });

  await frame.getByTestId('embed-photo-input').setInputFiles(PHOTOS.person);
  await expect(frame.getByRole('img', { name: 'Your photo' })).toBeVisible();
  const tryButton = frame.getByRole('button', { name: 'Try it on' });
  await expect(tryButton).toBeDisabled();
  await frame.getByLabel(/This photo is of me/).check();
  await tryButton.click();
  await expect(frame.getByRole('status')).toContainText('Dressing you in it');
  await expect(frame.getByRole('heading', { name: 'Here you are' })).toBeVisible({ timeout: 180_000 });
  await expect(frame.getByTestId('compare')).toBeVisible();
  await expect(frame.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /^\/api\/results\//);
  await page.screenshot({ path: `${SHOTS}/result-1366.png` });

  // The page got the result event: no image, no personal data, from our origin.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __events: unknown[] }).__events))
    .toEqual([{ origin: app, data: { type: 'aidressup:result' } }, 'dom-event']);
  expect(await credits(api)).toBe(before - 1);

  // Try another photo: back to the photo step, the garment kept.
  await frame.getByRole('button', { name: 'Try another photo' }).click();
  await expect(frame.getByRole('button', { name: 'Upload a photo' })).toBeVisible();
  await expect(frame.getByTestId('embed-garment')).toBeVisible();
});

test('the same page on an origin not on the list gets no frame (frame-ancestors)', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (msg) => {
    if (/frame-ancestors/.test(msg.text())) refused.push(msg.text());
  });
  await page.goto(`http://127.0.0.1:${shopPort}/`);
  await page.waitForFunction(() => 'AIDressUp' in window);
  await page.getByRole('button', { name: 'Try it on' }).click();
  await expect(page.getByRole('dialog', { name: 'Try it on' })).toBeVisible();
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  expect(refused[0]).toContain(`http://localhost:${shopPort}`);
  // Nothing of ours rendered inside.
  const child = page.frames().find((f) => f !== page.mainFrame());
  await expect(frameOf(page).getByTestId('embed-garment')).toHaveCount(0);
  expect(child?.url() ?? '').not.toContain('/embed?');
});
test('keyboard only: open the overlay, focus stays inside, a photo and consent by keyboard, Escape closes and focus returns', async ({
  page,
}) => {
  await page.goto(allowedShop());
  await page.waitForFunction(() => 'AIDressUp' in window);
  // Tab to the button: the link first, then the button.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const opener = page.getByRole('button', { name: 'Try it on' });
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  const close = page.getByRole('button', { name: 'Close' });
  await expect(close).toBeFocused();
  const frame = frameOf(page);
  await expect(frame.getByRole('button', { name: 'Upload a photo' })).toBeEnabled();

  // Tab walks into the frame: Upload, then Camera.
  await page.keyboard.press('Tab');
  await expect(frame.getByRole('button', { name: 'Upload a photo' })).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(PHOTOS.person);
  await expect(frame.getByRole('img', { name: 'Your photo' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(frame.getByRole('button', { name: 'Take a photo' })).toBeFocused();
  await page.keyboard.press('Tab');
  const consent = frame.getByLabel(/This photo is of me/);
  await expect(consent).toBeFocused();
  await page.keyboard.press('Space');
  await expect(consent).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(frame.getByRole('button', { name: 'Try it on' })).toBeFocused();
  await expect(frame.getByRole('button', { name: 'Try it on' })).toBeEnabled();
  // Past the frame's last control, focus comes back to the dialog's Close button, never the shop page.
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(close).not.toBeFocused();
  await expect(opener).not.toBeFocused();
  // Escape with the focus inside the dialog (in the frame, the frame asks the page to close it). The key
  // goes down, the overlay (and the frame) goes, then the key comes up on the page: a key released
  // into a frame that is being removed is never acknowledged, and the test would hang on it.
  await page.keyboard.down('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.up('Escape');
  await expect(opener).toBeFocused();
});

test('on a phone: the overlay and the frame fit 390 px', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(allowedShop());
  await page.waitForFunction(() => 'AIDressUp' in window);
  await page.getByRole('button', { name: 'Try it on' }).click();
  const frame = frameOf(page);
  await expect(frame.getByTestId('embed-garment')).toBeVisible();
  await frame.getByTestId('embed-photo-input').setInputFiles(PHOTOS.person);
  await expect(frame.getByRole('img', { name: 'Your photo' })).toBeVisible();
  const widths = await page.frames()[1]!.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/overlay-390.png` });
  await frame.getByLabel(/This photo is of me/).check();
  await frame.getByRole('button', { name: 'Try it on' }).click();
  await expect(frame.getByRole('heading', { name: 'Here you are' })).toBeVisible({ timeout: 180_000 });
  await page.screenshot({ path: `${SHOTS}/result-390.png` });
  await context.close();
});

/** Serious and critical axe findings (WCAG 2.1 A and AA, best practices) on the page and its frames. */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the overlay and the frame pass axe, in English and in Arabic (right to left)', async ({ page }) => {
  for (const lang of ['en', 'ar']) {
    await page.goto(`${allowedShop()}?lang=${lang}`);
    await page.waitForFunction(() => 'AIDressUp' in window);
    await page.getByRole('button', { name: 'Try it on' }).click();
    const frame = frameOf(page);
    await expect(frame.getByTestId('embed-garment')).toBeVisible();
    await expect(frame.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
    await frame.getByTestId('embed-photo-input').setInputFiles(PHOTOS.person);
    await expect(frame.locator('main img').nth(1)).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);
  }
});

test('the frame speaks the shop page’s language', async ({ page }) => {
  await page.goto(`${allowedShop()}?lang=de`);
  await page.waitForFunction(() => 'AIDressUp' in window);
  await page.getByRole('button', { name: 'Try it on' }).click();
  await expect(page.getByRole('dialog', { name: 'Anprobieren' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Schließen' })).toBeFocused();
  const frame = frameOf(page).locator('html');
  await expect(frame).toHaveAttribute('lang', 'de');
  await expect(frameOf(page).getByRole('heading', { name: 'Anprobieren' })).toBeVisible();
  await expect(frameOf(page).getByRole('button', { name: 'Foto hochladen' })).toBeEnabled();
});

test('a shop without credits: the frame says so politely, nothing is charged, the operator sees it', async ({
  page,
}) => {
  await page.goto(`${allowedShop()}?shop=empty`);
  await page.waitForFunction(() => 'AIDressUp' in window);
  await page.getByRole('button', { name: 'Try it on' }).click();
  const frame = frameOf(page);
  await frame.getByTestId('embed-photo-input').setInputFiles(PHOTOS.person);
  await frame.getByLabel(/This photo is of me/).check();
  await frame.getByRole('button', { name: 'Try it on' }).click();
  await expect(frame.getByRole('alert')).toHaveText(
    'Sorry, try-ons are not available on this shop right now. Please try again later. Nothing was charged.',
  );
  await expect(frame.getByRole('button', { name: 'Try again' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events)).toEqual([]);
  const seen = (await (await api.get(`/api/admin/merchants/${emptyMerchant.id}`)).json()) as {
    merchant: { credits: number; outOfCreditsSince: string | null; refusedNoCredits: number };
  };
  expect(seen.merchant).toMatchObject({ credits: 0, refusedNoCredits: 1 });
  expect(seen.merchant.outOfCreditsSince).not.toBeNull();
});

test('a product whose photo the engine refuses: the frame says it cannot be previewed here, nothing is charged, the shop learns which photo', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const before = await credits(api);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const { lang, width } of [
    { lang: 'en', width: 1366 },
    { lang: 'en', width: 390 },
    { lang: 'ar', width: 1366 },
  ]) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
    const page = await context.newPage();
    await page.goto(`${allowedShop()}?garment=worn&lang=${lang}`);
    await page.waitForFunction(() => 'AIDressUp' in window);
    await page.getByRole('button', { name: 'Try it on' }).click();
    const frame = frameOf(page);
    await expect(frame.getByTestId('embed-garment')).toBeVisible();
    await frame.getByTestId('embed-photo-input').setInputFiles(PHOTOS.person);
    await frame.getByLabel(catalogMessage(lang, 'embed.consent')).check();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/embed/tryon'));
    await frame.getByRole('button', { name: catalogMessage(lang, 'embed.try'), exact: true }).click();
    expect((await answer).status()).toBe(422);
    // The shop's side of it: this product cannot be previewed here; no advice on what photo to take.
    const alert = frame.getByRole('alert');
    await expect(alert).toHaveText(catalogMessage(lang, 'msg.productNotPreviewable'));
    await expect(alert).not.toContainText(/laid flat|hanger/);
    await expect(frame.getByTestId('embed-photo-input')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/product-refused-${lang}-${width}.png` });
    expect(await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events)).toEqual([]);
    await context.close();
  }
  expect(await credits(api)).toBe(before);
  const seen = (await (await api.get(`/api/admin/merchants/${merchant.id}`)).json()) as {
    refusedProductPhotos: { garmentSha256: string; garmentUrl: string | null; code: string; refusals: number }[];
  };
  expect(seen.refusedProductPhotos).toEqual([
    expect.objectContaining({
      garmentSha256: createHash('sha256').update(fs.readFileSync(PHOTOS.worn)).digest('hex'),
      garmentUrl: `http://localhost:${shopPort}/worn.jpg`,
      code: 'GARMENT_WORN',
      refusals: 3,
    }),
  ]);
});

test('the operator console shows the merchant: keys, origins, credits, try-ons per day, shopper sessions', async ({
  browser,
}) => {
  // Three credits, two try-ons with results (the first test and the phone's); five added at 1366.
  let expected = '1';
  for (const width of [1366, 390]) {
    const context = await browser.newContext({
      baseURL: app,
      storageState: await api.storageState(),
      viewport: { width, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/admin/merchants');
    const row = page.getByTestId('merchant-row').filter({ hasText: 'Test Shop' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(merchant.publishableKey);
    await expect(row).toContainText(`http://localhost:${shopPort}`);
    await row.getByRole('link', { name: 'Test Shop' }).click();
    await expect(page.getByTestId('merchant-title')).toHaveText('Test Shop');
    await expect(page.getByTestId('merchant-credits')).toHaveText(expected);
    const today = new Date().toISOString().slice(0, 10);
    await expect(page.getByTestId('merchant-usage').getByRole('row').nth(1)).toContainText(today);
    await expect(page.getByTestId('merchant-usage').getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('2');
    await expect(page.getByTestId('merchant-sessions')).toContainText(`http://localhost:${shopPort}`);
    const refusedPhoto = page.getByTestId('merchant-refused-photos').getByRole('row').nth(1);
    await expect(refusedPhoto).toContainText(`http://localhost:${shopPort}/worn.jpg`);
    await expect(refusedPhoto).toContainText('Shows the garment being worn');
    expect(await axeProblems(page)).toEqual([]);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/console-merchant-${width}.png`, fullPage: true });
    if (width === 1366) {
      await page.getByRole('button', { name: 'Add credits' }).click();
      const dialog = page.getByTestId('reason-dialog');
      await dialog.getByLabel('Credits').fill('5');
      await dialog.getByLabel('Reason').fill('Invoice 2026-11');
      await dialog.getByRole('button', { name: 'Add credits' }).click();
      await expect(page.getByTestId('merchant-credits')).toHaveText('6');
      expect(await credits(api)).toBe(6);
      expected = '6';
    }
    await context.close();
  }
});

test('the script is at most 10 KB compressed and sets no cookie', async () => {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${app}/embed.js`, { headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const size = Buffer.concat(chunks).length;
  console.log(`embed: /embed.js ${size} bytes gzip`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBe('gzip');
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(size).toBeLessThanOrEqual(10 * 1024);
});
