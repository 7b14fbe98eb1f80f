import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { ErrorResponseSchema, GarmentClassifyResponseSchema, MAX_UPLOAD_BYTES, MESSAGES } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { multipart, truncatedJpeg, type FilePart } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { findUserById } from '../repositories/users.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../e2e/fixtures');
const LOWER = fs.readFileSync(path.join(fixtures, 'garment-lower.jpg'));
const UPPER = fs.readFileSync(path.join(fixtures, 'garment-upper.jpg'));

/** Trousers cut out on a transparent background: the alpha channel is the garment's outline. */
function transparentTrousers(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400">
    <path d="M90 20 H210 L230 380 H165 L150 150 L135 380 H70 Z" fill="#f4f4f2"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function classify(
  app: FastifyInstance,
  cookie: string | undefined,
  fields: Record<string, string | FilePart | undefined>,
) {
  const body = multipart(fields);
  return app.inject({
    method: 'POST',
    url: '/api/garments/classify',
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
}

describe.each(DATABASE_KINDS)('POST /api/garments/classify on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    t = await make();
    ({
      cookie,
      user: { id: userId },
    } = await signIn(t.app));
  });
  it.each([
    ['garment-lower.jpg', () => LOWER, 'lower_body'],
    ['garment-upper.jpg', () => UPPER, 'upper_body'],
  ] as const)('suggests the category of %s', async (_name, bytes, category) => {
    const res = await classify(t.app, cookie, { clothingImage: { data: bytes() } });
    expect(res.statusCode, res.body).toBe(200);
    const body = GarmentClassifyResponseSchema.parse(res.json());
    expect(body.category).toBe(category);
    expect(body.confidence).toBeGreaterThanOrEqual(0.6);
    expect(Object.keys(res.json() as object).sort()).toEqual(['category', 'confidence', 'success']);
  });

  it('uses a transparent PNG’s alpha as the cut-out, and reads greyscale photos', async () => {
    const png = await classify(t.app, cookie, {
      clothingImage: { data: await transparentTrousers(), filename: 'trousers.png', contentType: 'image/png' },
    });
    expect(png.statusCode, png.body).toBe(200);
    expect(GarmentClassifyResponseSchema.parse(png.json()).category).toBe('lower_body');

    const grey = await classify(t.app, cookie, {
      clothingImage: { data: await sharp(LOWER).greyscale().jpeg().toBuffer() },
    });
    expect(grey.statusCode, grey.body).toBe(200);
    expect(GarmentClassifyResponseSchema.parse(grey.json()).category).toBe('lower_body');
  });

  it('is free: no trial or credit is used', async () => {
    const before = (await findUserById(t.app.db, userId))!;
    expect((await classify(t.app, cookie, { clothingImage: { data: LOWER } })).statusCode).toBe(200);
    const after = (await findUserById(t.app.db, userId))!;
    expect(after.free_trials_used).toBe(before.free_trials_used);
  });

  it('needs a session', async () => {
    const res = await classify(t.app, undefined, { clothingImage: { data: LOWER } });
    expectApiError(res, 401, 'UNAUTHORIZED', MESSAGES.notSignedIn);
  });

  it.each([
    [
      'text called a JPEG',
      { clothingImage: { data: Buffer.from('just some text, not a photo'), filename: 'shirt.jpg' } },
      415,
      'UNSUPPORTED_FORMAT',
      MESSAGES.notAPhoto,
    ],
    ['a truncated JPEG', { clothingImage: 'truncated' }, 422, 'IMAGE_UNREADABLE', MESSAGES.imageUnreadable],
    ['no photo', { category: 'upper_body' }, 400, 'MISSING_FILE', MESSAGES.missingClothingImage],
    [
      'a file over 10 MB',
      { clothingImage: { data: Buffer.concat([LOWER, Buffer.alloc(MAX_UPLOAD_BYTES)]) } },
      413,
      'FILE_TOO_LARGE',
      MESSAGES.fileTooLarge,
    ],
    ['a file under another name', { userImage: { data: LOWER } }, 400, 'VALIDATION_ERROR', MESSAGES.unexpectedParts],
    [
      'two photos',
      { clothingImage: { data: LOWER }, other: { data: UPPER } },
      400,
      'VALIDATION_ERROR',
      MESSAGES.unexpectedParts,
    ],
  ] as const)('refuses %s with the spec’s error', async (_name, fields, status, code, message) => {
    const resolved = { ...fields } as Record<string, string | FilePart | undefined>;
    if (resolved.clothingImage === 'truncated') resolved.clothingImage = { data: await truncatedJpeg() };
    const res = await classify(t.app, cookie, resolved);
    expect(res.statusCode, res.body).toBe(status);
    const body = ErrorResponseSchema.parse(res.json());
    expect([body.code, body.error]).toEqual([code, message]);
    // Nothing internal: the code, its message and at most the field the refusal is about.
    expect(Object.keys(res.json() as object).filter((k) => !['success', 'code', 'error', 'field'].includes(k))).toEqual(
      [],
    );
  });

  it('refuses a request that is not multipart as a missing photo', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/garments/classify',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{}',
    });
    expectApiError(res, 400, 'MISSING_FILE', MESSAGES.missingClothingImage);
  });
});

describe('POST /api/garments/classify rate limit', () => {
  const make = testApps('sqlite');

  it('allows three times the try-on rate per minute, then answers 429', async () => {
    const t = await make({ env: { RATE_LIMIT_TRYON_PER_MINUTE: '2' } });
    const { cookie } = await signIn(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await classify(t.app, cookie, { clothingImage: { data: Buffer.from('not a photo') } })).statusCode,
      );
    expect(statuses).toEqual([415, 415, 415, 415, 415, 415, 429]);
  });
});
