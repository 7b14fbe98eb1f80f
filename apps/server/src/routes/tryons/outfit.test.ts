/**
 * A whole outfit (a top with a bottom) through POST /api/process-image, and what paying buys:
 * full-resolution results and priority processing. On SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { FREE_RESULT_MAX_SIDE, MESSAGES, NoCreditsResponseSchema, TryOnResponseSchema } from '@aidressup/contract';
import { EngineError, type TryOnEngine } from '@aidressup/engine';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { gif, jpeg, png, type FilePart, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';
import { findUserById } from '../../repositories/users.js';
import { balance } from '../../ledger/ledger.js';

let PERSON: Buffer;
let TOP: Buffer;
let BOTTOM: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  TOP = await png(300, 300, '#2040ff');
  BOTTOM = await png(280, 360, '#20a040');
});

function tryOnRequest(
  app: FastifyInstance,
  cookie: string,
  fields: { userId: string; category?: string; api?: string; person?: Buffer; lower?: FilePart | null },
) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: fields.person ?? PERSON },
      clothingImage: { data: TOP, filename: 'top.png', contentType: 'image/png' },
      lowerClothingImage:
        fields.lower === null
          ? undefined
          : (fields.lower ?? { data: BOTTOM, filename: 'trousers.png', contentType: 'image/png' }),
      category: fields.category ?? 'upper_body',
      userId: fields.userId,
      api: fields.api,
    },
    cookie,
  );
}

async function buy(app: FastifyInstance, cookie: string, planId: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/billing/demo/checkout',
    headers: { cookie },
    payload: { planId },
  });
  expect(res.statusCode).toBe(200);
}

async function rowsOf(app: FastifyInstance, userId: string) {
  return app.db
    .selectFrom('tryons')
    .select(['id', 'status', 'charge', 'bundle_of', 'category'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

async function trialsUsed(app: FastifyInstance, userId: string): Promise<number> {
  return (await findUserById(app.db, userId))!.free_trials_used;
}

/** An engine whose results are large (1500×2000), to see what is stored. */
function largeResultEngine(): TryOnEngine {
  return {
    id: 'large',
    label: 'Large results',
    async tryOn() {
      const image = await sharp({ create: { width: 1500, height: 2000, channels: 3, background: '#808080' } })
        .jpeg()
        .toBuffer();
      return { image, mimeType: 'image/jpeg' };
    },
  };
}

describe.each(DATABASE_KINDS)('whole outfit on %s', (kind) => {
  const make = testApps(kind);

  it('charges two free trials, dresses the bottom and then the top over it, and answers the counts', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    const res = await tryOnRequest(app, cookie, { userId: user.id });
    expect(res.statusCode).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect(body).toMatchObject({ usedFreeTrial: true, creditsRemaining: 0, tryOnsUsed: 2, freeTrialsUsed: 2 });
    expect(await trialsUsed(app, user.id)).toBe(2);

    // The test double has no outfit of its own: two calls, bottom first, then the top on its result.
    expect(engine.calls.map((c) => c.category)).toEqual(['lower_body', 'upper_body']);
    expect((await sharp(engine.calls[0]!.garment).metadata()).width).toBe(280);
    expect((await sharp(engine.calls[1]!.garment).metadata()).width).toBe(300);
    expect((await sharp(engine.calls[1]!.person).metadata()).width).toBe(64);

    const rows = await rowsOf(app, user.id);
    expect(rows).toHaveLength(2);
    const main = rows.find((r) => r.id === body.tryonId)!;
    expect(main).toMatchObject({ status: 'succeeded', charge: 'trial', bundle_of: null, category: 'upper_body' });
    expect(rows.find((r) => r.id !== body.tryonId)).toMatchObject({
      status: 'succeeded',
      charge: 'trial',
      bundle_of: body.tryonId,
    });
    expect((await app.inject({ method: 'GET', url: body.imageUrl })).statusCode).toBe(200);
  });

  it('charges a free trial and a credit when one trial is left', async () => {
    const { app } = await make();
    const { cookie, user } = await signIn(app);
    expect((await tryOnRequest(app, cookie, { userId: user.id, lower: null })).statusCode).toBe(200);
    await buy(app, cookie, 'credits_200');
    const res = await tryOnRequest(app, cookie, { userId: user.id });
    expect(res.statusCode).toBe(200);
    expect(TryOnResponseSchema.parse(res.json())).toMatchObject({
      usedFreeTrial: true,
      creditsRemaining: 199,
      tryOnsUsed: 2,
      freeTrialsUsed: 1,
    });
    expect(await trialsUsed(app, user.id)).toBe(2);

    // Then two credits.
    const paid = await tryOnRequest(app, cookie, { userId: user.id });
    expect(TryOnResponseSchema.parse(paid.json())).toMatchObject({
      usedFreeTrial: false,
      creditsRemaining: 197,
      tryOnsUsed: 2,
      freeTrialsUsed: 0,
    });
  });

  it('with only one try-on left answers 402 NO_CREDITS with the user, and charges nothing', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    expect((await tryOnRequest(app, cookie, { userId: user.id, lower: null })).statusCode).toBe(200);
    const before = engine.calls.length;

    const res = await tryOnRequest(app, cookie, { userId: user.id });
    expect(res.statusCode).toBe(402);
    const no = NoCreditsResponseSchema.parse(res.json());
    expect(no.error).toBe(MESSAGES.noCredits);
    expect(no.user).toMatchObject({ id: user.id, free_trials_used: 1, credits: 0 });
    expect(engine.calls).toHaveLength(before);
    expect(await trialsUsed(app, user.id)).toBe(1);
    expect(await rowsOf(app, user.id)).toHaveLength(1);

    // The top alone still goes through with the one left.
    expect((await tryOnRequest(app, cookie, { userId: user.id, lower: null })).statusCode).toBe(200);
  });

  it('gives both try-ons back when the engine fails', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('GARMENT_NOT_PLACED') });
    const { app } = await make({ engine });
    const { cookie, user } = await signIn(app);
    await buy(app, cookie, 'weekly');
    // Use one trial, so the outfit takes a trial and a credit.
    engine.failWith = undefined;
    expect((await tryOnRequest(app, cookie, { userId: user.id, lower: null })).statusCode).toBe(200);
    engine.failWith = new EngineError('GARMENT_NOT_PLACED');

    const res = await tryOnRequest(app, cookie, { userId: user.id });
    expectApiError(res, 422, 'GARMENT_NOT_PLACED', MESSAGES.garmentNotPlaced);
    expect(await trialsUsed(app, user.id)).toBe(1);
    expect(await balance(app.db, user.id, new Date('2026-05-01T10:00:00.000Z'))).toBe(20);
    const outfitRows = (await rowsOf(app, user.id)).filter((r) => r.status === 'failed');
    expect(outfitRows.map((r) => r.charge).sort()).toEqual(['credit', 'trial']);
    const events = await app.db
      .selectFrom('credit_events')
      .select('type')
      .where('user_id', '=', user.id)
      .where('type', 'in', ['trial_refund', 'refund'])
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['refund', 'trial_refund']);
  });

  it('refuses a bottom with another category than Upper Body (400), and a bottom that is not an image, charging nothing', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    for (const category of ['lower_body', 'dresses']) {
      const res = await tryOnRequest(app, cookie, { userId: user.id, category });
      expectApiError(res, 400, 'VALIDATION_ERROR', MESSAGES.lowerClothingNeedsUpperBody);
    }
    const notImage = await tryOnRequest(app, cookie, {
      userId: user.id,
      lower: { data: await gif(), filename: 'b.gif', contentType: 'image/gif' },
    });
    expectApiError(notImage, 415, 'UNSUPPORTED_FORMAT', {
      message: MESSAGES.unsupportedFormat,
      extra: { field: 'lowerClothingImage' },
    });
    expect(engine.calls).toHaveLength(0);
    expect(await trialsUsed(app, user.id)).toBe(0);
  });

  it('keeps paid results at full size and reduces free-trial results to 1024 px', async () => {
    const { app } = await make({ engines: { large: largeResultEngine() } });
    const { cookie, user } = await signIn(app);
    const free = TryOnResponseSchema.parse((await tryOnRequest(app, cookie, { userId: user.id, api: 'large' })).json());
    const freeMeta = await sharp((await app.inject({ method: 'GET', url: free.imageUrl })).rawPayload).metadata();
    expect([freeMeta.width, freeMeta.height]).toEqual([768, FREE_RESULT_MAX_SIDE]);

    await buy(app, cookie, 'credits_200');
    const paid = TryOnResponseSchema.parse(
      (await tryOnRequest(app, cookie, { userId: user.id, api: 'large', lower: null })).json(),
    );
    expect(paid.usedFreeTrial).toBe(false);
    const paidMeta = await sharp((await app.inject({ method: 'GET', url: paid.imageUrl })).rawPayload).metadata();
    expect([paidMeta.width, paidMeta.height]).toEqual([1500, 2000]);
  });

  it('starts a waiting try-on of a Monthly Pro buyer before other waiting ones', async () => {
    const gates: (() => void)[] = [];
    const started: number[] = [];
    const gated: TryOnEngine = {
      id: 'gated',
      label: 'Gated',
      async tryOn(input) {
        started.push((await sharp(input.person).metadata()).width!);
        await new Promise<void>((resolve) => gates.push(resolve));
        return {
          image: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
            .png()
            .toBuffer(),
          mimeType: 'image/png',
        };
      },
    };
    const { app } = await make({ engines: { gated }, env: { ENGINE_CONCURRENCY: '1' } });
    const [first, normal, paying] = await Promise.all([signIn(app), signIn(app), signIn(app)]);
    await buy(app, paying.cookie, 'monthly');
    const until = (check: () => boolean) => expect.poll(check, { timeout: 5_000 }).toBe(true);

    const running = tryOnRequest(app, first.cookie, {
      userId: first.user.id,
      lower: null,
      person: await jpeg(480, 640),
    });
    await until(() => started.length === 1);
    const waitingNormal = tryOnRequest(app, normal.cookie, {
      userId: normal.user.id,
      lower: null,
      person: await jpeg(400, 600),
    });
    await expect.poll(() => app.tryOnLine.waiting('gated'), { timeout: 5_000 }).toBe(1);
    const waitingPaying = tryOnRequest(app, paying.cookie, {
      userId: paying.user.id,
      lower: null,
      person: await jpeg(320, 480),
    });
    await expect.poll(() => app.tryOnLine.waiting('gated'), { timeout: 5_000 }).toBe(2);

    gates.shift()!();
    await until(() => started.length === 2);
    gates.shift()!();
    await until(() => started.length === 3);
    gates.shift()!();
    const answers = await Promise.all([running, waitingNormal, waitingPaying]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    // The paying user's photo (320 wide) went before the one that was waiting first (400).
    expect(started).toEqual([480, 320, 400]);
  });
});
