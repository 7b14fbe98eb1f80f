/** Cheap refusals before decoding, and bounded waiting for an engine slot (503 ENGINE_BUSY, no charge). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EngineBusyResponseSchema, MESSAGES, NoCreditsResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, png, type FilePart, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(320, 480, '#c08060');
  GARMENT = await png(200, 200, '#2040ff');
});

function tryOn(
  app: FastifyInstance,
  cookie: string,
  userId: string,
  files: { userImage?: FilePart; clothingImage?: FilePart } = {},
) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: files.userImage ?? { data: PERSON },
      clothingImage: files.clothingImage ?? { data: GARMENT, contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

describe.each(DATABASE_KINDS)('try-on limits on %s', (kind) => {
  const make = testApps(kind);

  it('refuses a user with nothing left before decoding the photos (no decode, no reservation)', async () => {
    const t = await make({ env: { FREE_TRIALS_LIMIT: '0' } });
    const { cookie, user } = await signIn(t.app);
    // Photos that would fail to decode: the balance check comes first, so the answer is NO_CREDITS.
    const junk = { data: Buffer.alloc(5_000_000, 0xff), contentType: 'image/jpeg' };
    const res = await tryOn(t.app, cookie, user.id, { userImage: junk, clothingImage: junk });
    expect(res.statusCode).toBe(402);
    const body = NoCreditsResponseSchema.parse(res.json());
    expect(body.user.id).toBe(user.id);
    expect(t.engine.calls).toHaveLength(0);
    expect(await t.app.db.selectFrom('tryons').select('id').execute()).toEqual([]);
  });

  it('holds at most ENGINE_QUEUE_LIMIT try-ons in line, uncharged; the next gets 503 with its place, Retry-After and a ticket, at no charge', async () => {
    // The engine answers only when the test says: the first try-on runs until then.
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1', ENGINE_QUEUE_LIMIT: '1' } });
    const [a, b, c] = [await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);
    const waiting = tryOn(t.app, b.cookie, b.user.id);
    await expect.poll(() => t.app.tryOnLine.waiting(engine.id)).toBe(1);
    // Waiting in line reserves nothing: only the running try-on has a row.
    expect(await t.app.db.selectFrom('tryons').select('user_id').execute()).toEqual([{ user_id: a.user.id }]);

    const refused = await tryOn(t.app, c.cookie, c.user.id);
    const busy = EngineBusyResponseSchema.parse(refused.json());
    expectApiError(refused, 503, 'ENGINE_BUSY', {
      message: MESSAGES.engineBusy,
      extra: {
        place: 2,
        waitSeconds: busy.waitSeconds,
        retryAfterSeconds: busy.retryAfterSeconds,
        ticket: busy.ticket,
      },
    });
    expect(busy.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(refused.headers['retry-after']).toBe(String(busy.retryAfterSeconds));
    const third = await t.app.db
      .selectFrom('users')
      .select('free_trials_used')
      .where('id', '=', c.user.id)
      .executeTakeFirstOrThrow();
    expect(third.free_trials_used).toBe(0);

    engine.release();
    expect((await running).statusCode).toBe(200);
    expect((await waiting).statusCode).toBe(200);
    // Room again: the refused shopper can try now.
    expect((await tryOn(t.app, c.cookie, c.user.id)).statusCode).toBe(200);
  });
});
