import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import {
  MAX_UPLOAD_BYTES,
  MESSAGES,
  NoCreditsResponseSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
} from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { expectApiError } from '../../test/api-error.js';
import {
  gif,
  jpeg,
  multipart,
  png,
  pngHeaderOnly,
  rotatedJpegWithExif,
  truncatedJpeg,
  type FilePart,
} from '../../test/images.js';
import { reserveTryOn } from '../../ledger/ledger.js';
import { findUserById } from '../../repositories/users.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

function tryOnRequest(
  app: FastifyInstance,
  cookie: string | undefined,
  fields: { userId?: string; category?: string; api?: string; userImage?: FilePart; clothingImage?: FilePart },
) {
  const body = multipart({
    userImage: 'userImage' in fields ? fields.userImage : { data: PERSON },
    clothingImage:
      'clothingImage' in fields
        ? fields.clothingImage
        : { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
    category: fields.category ?? 'upper_body',
    userId: fields.userId,
    api: fields.api,
  });
  return app.inject({
    method: 'POST',
    url: '/api/process-image',
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
}

async function trialsUsed(app: FastifyInstance, userId: string): Promise<number> {
  return (await findUserById(app.db, userId))!.free_trials_used;
}

describe.each(DATABASE_KINDS)('try-on on %s', (kind) => {
  const make = testApps(kind);

  it('runs the whole flow: trials, NO_CREDITS, demo purchase, paid try-on, gallery', async () => {
    const t = await make();
    const { app, engine, clock } = t;
    const { cookie, user } = await signIn(app);
    expect(user.segment).toBe('trial');

    const first = await tryOnRequest(app, cookie, { userId: user.id });
    expect(first.statusCode).toBe(200);
    const r1 = TryOnResponseSchema.parse(first.json());
    expect([r1.usedFreeTrial, r1.creditsRemaining]).toEqual([true, 0]);
    expect(r1.imageUrl).toMatch(/^\/api\/results\/[A-Za-z0-9_-]{43}\.png$/);
    expect(engine.calls).toHaveLength(1);
    expect(engine.calls[0]?.category).toBe('upper_body');

    const image = await app.inject({ method: 'GET', url: r1.imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(String(image.headers['cache-control'])).toMatch(/max-age=\d{6,}/);
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([64, 64]);

    clock.advance(60_000);
    const second = await tryOnRequest(app, cookie, { userId: user.id, category: 'dresses' });
    expect(TryOnResponseSchema.parse(second.json()).usedFreeTrial).toBe(true);

    clock.advance(60_000);
    const refused = await tryOnRequest(app, cookie, { userId: user.id });
    expect(refused.statusCode).toBe(402);
    const no = NoCreditsResponseSchema.parse(refused.json());
    expect(no.error).toBe(MESSAGES.noCredits);
    expect(no.user).toMatchObject({
      id: user.id,
      credits: 0,
      free_trials_used: 2,
      free_trials_limit: 2,
      segment: 'trial_exhausted',
    });
    expect(engine.calls).toHaveLength(2);

    const bought = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'credits_200', amount: 999999, credits: 5000 },
    });
    expect(bought.statusCode).toBe(200);
    expect(bought.json().user).toMatchObject({ credits: 200, segment: 'customer' });

    clock.advance(60_000);
    const paid = await tryOnRequest(app, cookie, { userId: user.id, category: 'lower_body' });
    expect(paid.statusCode).toBe(200);
    expect(TryOnResponseSchema.parse(paid.json())).toMatchObject({ usedFreeTrial: false, creditsRemaining: 199 });

    const list = await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } });
    const items = TryOnListResponseSchema.parse(list.json()).items;
    expect(items.map((i) => i.category)).toEqual(['lower_body', 'dresses', 'upper_body']);
    expect(items[2]?.imageUrl).toBe(r1.imageUrl);
    expect(items.every((i) => i.engine === 'test-double' && i.expiresAt !== null)).toBe(true);

    // Uploads were never stored: the files folder holds the three results only.
    const files = path.join(t.config.dataDir, 'files');
    expect(fs.readdirSync(files).filter((f) => !f.startsWith('.'))).toEqual(['results']);
    expect(fs.readdirSync(path.join(files, 'results')).sort()).toEqual(
      items.map((i) => i.imageUrl.split('/').pop()).sort(),
    );

    // Another user sees none of them.
    const other = await signIn(app);
    const otherList = await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: other.cookie } });
    expect(otherList.json()).toEqual({ success: true, items: [], nextCursor: null });
    expect((await app.inject({ method: 'GET', url: '/api/tryons' })).statusCode).toBe(401);
  });

  it('passes the engine upright images without metadata', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    const res = await tryOnRequest(app, cookie, {
      userId: user.id,
      userImage: { data: await rotatedJpegWithExif(600, 300) },
    });
    expect(res.statusCode).toBe(200);
    const meta = await sharp(engine.calls[0]!.person).metadata();
    expect([meta.width, meta.height, meta.exif, meta.orientation]).toEqual([300, 600, undefined, undefined]);
  });

  it('lets no other session read or spend a user', async () => {
    const { app, engine } = await make();
    const alice = await signIn(app);
    const bob = await signIn(app);
    const asBob = await tryOnRequest(app, bob.cookie, { userId: alice.user.id });
    expectApiError(asBob, 403, 'FORBIDDEN');
    const anonymous = await tryOnRequest(app, undefined, { userId: alice.user.id });
    expect(anonymous.statusCode).toBe(401);
    const forged = await tryOnRequest(app, `aidu_session=${alice.user.id}`, { userId: alice.user.id });
    expect(forged.statusCode).toBe(401);
    const buyForOther = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      payload: { planId: 'weekly' },
    });
    expect(buyForOther.statusCode).toBe(401);
    expect(await trialsUsed(app, alice.user.id)).toBe(0);
    expect(engine.calls).toHaveLength(0);
  });

  it('spends nothing on bad input', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    PERSON.copy(big);
    const cases: [Parameters<typeof tryOnRequest>[2], number, string, string?][] = [
      [
        { userId: user.id, userImage: { data: Buffer.from('just some text, not a photo'), filename: 'me.jpg' } },
        415,
        'UNSUPPORTED_FORMAT',
        MESSAGES.notAPhoto,
      ],
      [
        { userId: user.id, clothingImage: { data: await gif(), filename: 'shirt.gif', contentType: 'image/gif' } },
        415,
        'UNSUPPORTED_FORMAT',
        MESSAGES.unsupportedFormat,
      ],
      [{ userId: user.id, userImage: { data: await truncatedJpeg() } }, 422, 'IMAGE_UNREADABLE'],
      [{ userId: user.id, userImage: { data: big } }, 413, 'FILE_TOO_LARGE', MESSAGES.fileTooLarge],
      [
        { userId: user.id, clothingImage: { data: pngHeaderOnly(30000, 30000), contentType: 'image/png' } },
        422,
        'IMAGE_TOO_MANY_PIXELS',
      ],
      [{ userId: user.id, userImage: undefined }, 400, 'MISSING_FILE', MESSAGES.missingPersonImage],
      [{ userId: user.id, clothingImage: undefined }, 400, 'MISSING_FILE', MESSAGES.missingClothingImage],
      [{ userId: user.id, category: 'hats' }, 400, 'INVALID_CATEGORY'],
      [{ userId: user.id, api: 'no-such-engine' }, 400, 'ENGINE_UNAVAILABLE'],
      [{}, 400, 'VALIDATION_ERROR'],
    ];
    for (const [fields, status, code, message] of cases) {
      const res = await tryOnRequest(app, cookie, fields);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
      expect(res.json().success).toBe(false);
      if (message) expect(res.json().error).toBe(message);
    }
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/api/process-image',
      headers: { cookie },
      payload: { userId: user.id },
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(await trialsUsed(app, user.id)).toBe(0);
    expect(engine.calls).toHaveLength(0);
    const rows = await app.db.selectFrom('tryons').select('id').execute();
    expect(rows).toHaveLength(0);
  });

  it('gives exactly 2 of 20 concurrent try-ons to a user with 2 free trials', async () => {
    const { app, engine } = await make({ engine: createEngineDouble({ delayMs: 20 }) });
    const { cookie, user } = await signIn(app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => tryOnRequest(app, cookie, { userId: user.id })),
    );
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 402)).toHaveLength(18);
    for (const r of responses.filter((x) => x.statusCode === 402)) expectApiError(r, 402, 'NO_CREDITS');
    expect(engine.calls).toHaveLength(2);
    expect(await trialsUsed(app, user.id)).toBe(2);
  });

  it('refunds when the engine refuses or fails, and hides internals', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('PERSON_NOT_FOUND') });
    const { app } = await make({ engine });
    const { cookie, user } = await signIn(app);
    const refused = await tryOnRequest(app, cookie, { userId: user.id });
    expectApiError(refused, 422, 'PERSON_NOT_FOUND', MESSAGES.personNotFound);
    expect(await trialsUsed(app, user.id)).toBe(0);

    engine.failWith = new Error('connection reset by /internal/secret-host:5432');
    const failed = await tryOnRequest(app, cookie, { userId: user.id });
    expectApiError(failed, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
    expect(failed.body).not.toMatch(/secret-host/);

    // A paid try-on is refunded to the grant it came from.
    await app.db.updateTable('users').set({ free_trials_used: 2 }).where('id', '=', user.id).execute();
    await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'weekly' },
    });
    const paidFail = await tryOnRequest(app, cookie, { userId: user.id });
    expect(paidFail.statusCode).toBe(502);
    const me = await app.inject({ method: 'GET', url: `/api/auth/user/${user.id}`, headers: { cookie } });
    expect(me.json().user).toMatchObject({ credits: 20, segment: 'subscriber' });
    const rows = await app.db.selectFrom('tryons').select(['status', 'error_code']).execute();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    const events = await app.db.selectFrom('credit_events').select('type').where('user_id', '=', user.id).execute();
    expect(events.map((e) => e.type).sort()).toEqual([
      'grant',
      'refund',
      'spend',
      'trial_refund',
      'trial_refund',
      'trial_spend',
      'trial_spend',
    ]);
  });

  it('times out a slow engine at the deadline and refunds', async () => {
    const { app } = await make({
      engine: createEngineDouble({ delayMs: 10_000 }),
      env: { ENGINE_DEADLINE_MS: '1000' },
    });
    const { cookie, user } = await signIn(app);
    const started = Date.now();
    const res = await tryOnRequest(app, cookie, { userId: user.id });
    expect(Date.now() - started).toBeLessThan(8000);
    expectApiError(res, 504, 'ENGINE_TIMEOUT', MESSAGES.engineTimeout);
    expect(await trialsUsed(app, user.id)).toBe(0);
  });

  it('fails and refunds try-ons left processing by a crash at start-up', async () => {
    const first = await make();
    const { user } = await signIn(first.app);
    const stuck = await reserveTryOn(first.app.db, {
      userId: user.id,
      freeTrialsLimit: 2,
      category: 'upper_body',
      engine: 'test-double',
      now: first.clock.now,
    });
    const fresh = await reserveTryOn(first.app.db, {
      userId: user.id,
      freeTrialsLimit: 2,
      category: 'upper_body',
      engine: 'test-double',
      now: new Date(first.clock.now.getTime() + 200_000),
    });
    expect(stuck.ok && fresh.ok).toBe(true);
    expect(await trialsUsed(first.app, user.id)).toBe(2);
    await first.app.close();
    // Restart 150 s later: the first reservation is past the 100 s deadline, the second is not yet old.
    const restarted = await make({
      dataDir: first.config.dataDir,
      start: new Date(first.clock.now.getTime() + 250_000),
      ...(first.config.databaseUrl ? { databaseUrl: first.config.databaseUrl } : {}),
    });
    const rows = await restarted.app.db
      .selectFrom('tryons')
      .select(['id', 'status', 'error_code'])
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'processing']);
    expect(await trialsUsed(restarted.app, user.id)).toBe(1);
  });

  it('serves results by strict name only, and not after they expire', async () => {
    const { app, clock } = await make();
    const { cookie, user } = await signIn(app);
    const res = TryOnResponseSchema.parse((await tryOnRequest(app, cookie, { userId: user.id })).json());
    for (const url of [
      '/api/results/..%2F..%2Fapp.db',
      '/api/results/short.png',
      `/api/results/${'A'.repeat(43)}.png`,
      `${res.imageUrl}.png`,
    ]) {
      const r = await app.inject({ method: 'GET', url });
      expectApiError(r, 404, 'NOT_FOUND');
    }
    expect((await app.inject({ method: 'GET', url: res.imageUrl })).statusCode).toBe(200);
    clock.advance(31 * 86_400_000);
    expect((await app.inject({ method: 'GET', url: res.imageUrl })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json().items).toEqual([]);
  });
});
