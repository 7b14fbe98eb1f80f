/**
 * Upload benchmark (`npm run bench:upload`, which builds first; also part of `npm run bench`).
 *
 * A large phone-like photo (4000×3000 JPEG made with sharp from a person photo of
 * /work/shared/fixtures/tryon, or BENCH_UPLOAD_PHOTO) is picked on the real page, served by the real
 * built server, in Chromium (playwright-core). The posted multipart body is caught before it reaches
 * the server (answered with a stand-in, so no engine runs and no credit is used) and the person
 * photo's bytes are compared with the original's. Then the server's decoding and normalising of
 * both files is timed in Node with the pipeline of apps/server/src/services/images.ts
 * (validateAndNormalise), reproduced here because the bench does not depend on the server package.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_UPLOAD_PORT (default 3310),
 * BENCH_UPLOAD_PHOTO (a person photo), BENCH_UPLOAD_RUNS (default 9).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, startBuiltServer } from './built-server.js';
import sharp from 'sharp';

const FIXTURES = '/work/shared/fixtures/tryon';
const MAX_SIDE = 2048;
const MAX_PIXELS = 40_000_000;
const MIN_WORKING_SIDE = 1000;

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function pickPhoto(): string {
  if (process.env.BENCH_UPLOAD_PHOTO) return process.env.BENCH_UPLOAD_PHOTO;
  const dir = path.join(FIXTURES, 'person');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => /\.jpe?g$/i.test(f))
        .sort()
    : [];
  if (files.length) return path.join(dir, files[0]!);
  return path.join(repoRoot, 'e2e/fixtures/person.jpg');
}

/** The server's normalisation (apps/server/src/services/images.ts: normalisedSide + validateAndNormalise). */
async function serverNormalise(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const longest = Math.max(meta.width, meta.height);
  const third = Math.floor(longest / 3);
  const target =
    meta.format === 'jpeg' && longest > MAX_SIDE && third >= MIN_WORKING_SIDE && third <= MAX_SIDE ? third : MAX_SIDE;
  const pipeline = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true })
    .rotate()
    .resize({ width: target, height: target, fit: 'inside', withoutEnlargement: true });
  const out = meta.hasAlpha
    ? await pipeline.png({ compressionLevel: 2 }).toBuffer({ resolveWithObject: true })
    : await pipeline.jpeg({ quality: 92, optimiseCoding: false }).toBuffer({ resolveWithObject: true });
  return { width: out.info.width, height: out.info.height };
}

async function timeServer(bytes: Buffer, runs: number): Promise<{ ms: number; width: number; height: number }> {
  await serverNormalise(bytes); // warm-up
  const times: number[] = [];
  let size = { width: 0, height: 0 };
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    size = await serverNormalise(bytes);
    times.push(performance.now() - t);
  }
  return { ms: median(times), ...size };
}

/** The person photo's part of a multipart body. */
function filePart(body: Buffer, contentType: string, field: string): Buffer | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) return null;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (chunk.subarray(0, headerEnd).toString('utf8').includes(`name="${field}"`)) return chunk.subarray(headerEnd + 4);
    start = next;
  }
  return null;
}

/** Picks the photo on the page and returns the bytes the page posts, and how long the page took. */
async function uploadedInBrowser(
  port: number,
  photo: string,
  garment: string,
): Promise<{ bytes: Buffer; prepareMs: number }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.addInitScript(() => {
      (window as unknown as { __AIDRESSUP_TEST_FAIL_FINGERPRINT__: boolean }).__AIDRESSUP_TEST_FAIL_FINGERPRINT__ =
        true;
    });
    let resolveBody!: (b: Buffer) => void;
    const posted = new Promise<Buffer>((r) => (resolveBody = r));
    let clickedAt = 0;
    let postedAt = 0;
    await page.route('**/api/process-image', async (route) => {
      postedAt = performance.now();
      const req = route.request();
      const part = filePart(req.postDataBuffer() ?? Buffer.alloc(0), req.headers()['content-type'] ?? '', 'userImage');
      resolveBody(part ?? Buffer.alloc(0));
      await route.fulfill({
        json: { success: true, imageUrl: '/favicon.svg', usedFreeTrial: true, creditsRemaining: 0 },
      });
    });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByTestId('user-id').waitFor();
    await page.getByTestId('upload-person-input').setInputFiles(photo);
    await page.getByTestId('upload-person-preview').waitFor();
    await page.getByTestId('upload-clothing-input').setInputFiles(garment);
    await page.getByTestId('upload-clothing-preview').waitFor();
    clickedAt = performance.now();
    await page.getByTestId('try-with-ai').click();
    const bytes = await posted;
    return { bytes, prepareMs: postedAt - clickedAt };
  } finally {
    await browser.close();
  }
}

/** The photo upscaled to 4000×3000; with `grain`, sensor-like noise so it weighs what a phone photo does. */
async function makeLargePhoto(source: string, out: string, grain: boolean): Promise<void> {
  const upscaled = sharp(source).rotate().resize({ width: 4000, height: 3000, fit: 'cover' });
  if (!grain) {
    await upscaled.jpeg({ quality: 92 }).toFile(out);
    return;
  }
  const { data, info } = await upscaled.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((seed >> 16) % 25) - 12));
  }
  await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 92 })
    .toFile(out);
}

export async function runUploadBench(): Promise<void> {
  const runs = Number(process.env.BENCH_UPLOAD_RUNS ?? 9);
  const source = pickPhoto();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-bench-upload-photo-'));
  const garment = path.join(repoRoot, 'e2e/fixtures/garment-upper.jpg');
  const port = Number(process.env.BENCH_UPLOAD_PORT ?? 3310);
  const server = await startBuiltServer(port, 'upload');
  try {
    for (const grain of [false, true]) {
      const large = path.join(tmp, `large-person${grain ? '-grain' : ''}.jpg`);
      await makeLargePhoto(source, large, grain);
      const original = fs.readFileSync(large);
      console.log(
        `== Upload of a 4000×3000 JPEG made from ${path.basename(source)}${grain ? ', with photo grain' : ', upscaled (smooth)'} ==`,
      );
      const uploaded = await uploadedInBrowser(port, large, garment);
      if (uploaded.bytes.length === 0)
        throw new Error('the page posted no readable person photo (was the original, read from disk, sent?)');
      const meta = await sharp(uploaded.bytes).metadata();
      console.log(`  original         ${kb(original.length).padStart(9)}  4000×3000`);
      console.log(
        `  uploaded         ${kb(uploaded.bytes.length).padStart(9)}  ${meta.width}×${meta.height} ${meta.format}  (${(
          (100 * uploaded.bytes.length) /
          original.length
        ).toFixed(0)} % of the original)`,
      );
      console.log(
        `  page: Try with AI pressed → request sent in ${uploaded.prepareMs.toFixed(0)} ms (the reduction starts when the photo is picked)`,
      );
      const before = await timeServer(original, runs);
      const after = await timeServer(uploaded.bytes, runs);
      console.log(`  server decode + normalise (sharp, as validateAndNormalise; median of ${runs}):`);
      console.log(`    original  ${before.ms.toFixed(1).padStart(7)} ms → ${before.width}×${before.height}`);
      console.log(`    reduced   ${after.ms.toFixed(1).padStart(7)} ms → ${after.width}×${after.height}`);
    }
  } finally {
    server.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUploadBench();
}
