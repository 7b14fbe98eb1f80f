/**
 * Busy is a wait: a try-on that finds every engine slot taken waits in line on the server, told its
 * place on the progress stream, and is charged only once it starts; a shopper who leaves (closes
 * the connection) gives up the place and is charged nothing; a ticket from ENGINE_BUSY keeps the
 * place. On SQLite and PostgreSQL (the ledger is what must not move).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EngineBusyResponseSchema, LeaveLineResponseSchema, type TryOnProgressEvent } from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { postJson, signIn, testApps } from '../../test/app.js';
import { expectApiError } from '../../test/api-error.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, multipart, png, postMultipart } from '../../test/images.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(320, 480, '#c08060');
  GARMENT = await png(200, 200, '#2040ff');
});

const fields = (userId: string, extra: Record<string, string> = {}) => ({
  userImage: { data: PERSON },
  clothingImage: { data: GARMENT, contentType: 'image/png' },
  category: 'upper_body',
  userId,
  ...extra,
});

function tryOn(app: FastifyInstance, cookie: string, userId: string, extra: Record<string, string> = {}) {
  return postMultipart(app, '/api/process-image', fields(userId, extra), cookie);
}

/** A try-on from a given client address. */
function tryOnFrom(app: FastifyInstance, ip: string, cookie: string, userId: string) {
  const body = multipart(fields(userId));
  return app.inject({
    method: 'POST',
    url: '/api/process-image',
    headers: { ...body.headers, cookie },
    payload: body.payload,
    remoteAddress: ip,
  });
}

async function ledger(app: FastifyInstance, userId: string) {
  const user = await app.db
    .selectFrom('users')
    .select('free_trials_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await app.db.selectFrom('tryons').select('id').where('user_id', '=', userId).execute();
  const events = await app.db.selectFrom('credit_events').select('type').where('user_id', '=', userId).execute();
  return { trialsUsed: user.free_trials_used, tryons: rows.length, events: events.map((e) => e.type) };
}

describe.each(DATABASE_KINDS)('the try-on line on %s', (kind) => {
  const make = testApps(kind);

  it('a waiting try-on hears its place and expected wait, is charged nothing while waiting, and is charged once it starts', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1' } });
    const [a, b] = [await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);

    const progressId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const events: TryOnProgressEvent[] = [];
    // The page listens before it posts.
    const sub = t.app.tryOnProgress.subscribe(progressId, b.user.id, (e) => events.push(e));
    if (!sub.ok) throw new Error('the progress id should be free');
    const waiting = tryOn(t.app, b.cookie, b.user.id, { progressId });
    await expect.poll(() => t.app.tryOnLine.waiting(engine.id)).toBe(1);
    await expect.poll(() => events.at(-1)?.place).toBe(1);
    expect(events.at(-1)).toMatchObject({ stage: 'queued', place: 1 });
    expect(events.at(-1)?.waitSeconds).toBeGreaterThanOrEqual(1);
    // Waiting reserves nothing: no row, no trial, no ledger event.
    expect(await ledger(t.app, b.user.id)).toEqual({ trialsUsed: 0, tryons: 0, events: [] });

    engine.release();
    expect((await running).statusCode).toBe(200);
    expect((await waiting).statusCode).toBe(200);
    // Started, then charged: the line ended with a `queued` event without a place.
    expect(events.some((e) => e.stage === 'queued' && e.place === undefined)).toBe(true);
    expect(events.at(-1)?.stage).toBe('done');
    expect(await ledger(t.app, b.user.id)).toEqual({ trialsUsed: 1, tryons: 1, events: ['trial_spend'] });
    sub.unsubscribe();
  });

  it('a shopper who leaves while waiting (the connection closes) gives up the place and is charged nothing', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const [a, b] = [await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);

    // b posts over a real connection, then goes away (the page's Leave the line aborts the post).
    const form = multipart(fields(b.user.id));
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/process-image',
      headers: { ...form.headers, cookie: b.cookie, 'content-length': String(form.payload.length) },
    });
    req.on('error', () => undefined);
    req.end(form.payload);
    await expect.poll(() => t.app.tryOnLine.waiting(engine.id)).toBe(1);
    req.destroy();
    await expect.poll(() => t.app.tryOnLine.waiting(engine.id)).toBe(0);

    engine.release();
    expect((await running).statusCode).toBe(200);
    // Nobody is left in line or let in who could still run: b is gone for good.
    expect(await t.app.tryOnLine.snapshot(engine.id)).toMatchObject({ tickets: [], running: [] });
    expect(engine.calls).toHaveLength(1);
    expect(await ledger(t.app, b.user.id)).toEqual({ trialsUsed: 0, tryons: 0, events: [] });
  });

  it('past the longest wait the answer is ENGINE_BUSY with the place, Retry-After and a ticket, uncharged', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1', ENGINE_LINE_WAIT_MS: '300' } });
    const [a, b] = [await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);

    const refused = await tryOn(t.app, b.cookie, b.user.id);
    expect(refused.statusCode).toBe(503);
    const busy = EngineBusyResponseSchema.parse(refused.json());
    expect(busy).toMatchObject({ code: 'ENGINE_BUSY', place: 1, retryAfterSeconds: 1 });
    expect(busy.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(refused.headers['retry-after']).toBe('1');
    expect(await ledger(t.app, b.user.id)).toEqual({ trialsUsed: 0, tryons: 0, events: [] });
    engine.release();
    expect((await running).statusCode).toBe(200);
    expect((await tryOn(t.app, b.cookie, b.user.id, { lineTicket: busy.ticket! })).statusCode).toBe(200);
  });

  it('first come, first served: a ticket holder due back is not overtaken by someone behind who comes back first', async () => {
    // Named as a hosted engine (about 30 s a try-on until measured): c's Retry-After is long, so c is
    // surely still due back when d returns.
    const engine = createEngineDouble({ held: true, id: 'nano-banana' });
    // Nobody is held on the server: every wait is an ENGINE_BUSY with a ticket.
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1', ENGINE_QUEUE_LIMIT: '0' } });
    const [a, c, d] = [await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);
    const cBusy = EngineBusyResponseSchema.parse((await tryOn(t.app, c.cookie, c.user.id)).json());
    expect(cBusy.retryAfterSeconds).toBe(15);
    const dBusy = EngineBusyResponseSchema.parse((await tryOn(t.app, d.cookie, d.user.id)).json());
    expect([cBusy.place, dBusy.place]).toEqual([1, 2]);

    engine.release();
    expect((await running).statusCode).toBe(200);
    // The slot is free, but d, behind c, comes back first: the slot is kept for c (due back).
    const dEarly = await tryOn(t.app, d.cookie, d.user.id, { lineTicket: dBusy.ticket! });
    expect(dEarly.statusCode).toBe(503);
    expect(EngineBusyResponseSchema.parse(dEarly.json())).toMatchObject({ place: 2, ticket: dBusy.ticket });
    expect(await ledger(t.app, d.user.id)).toEqual({ trialsUsed: 0, tryons: 0, events: [] });
    expect((await tryOn(t.app, c.cookie, c.user.id, { lineTicket: cBusy.ticket! })).statusCode).toBe(200);
    expect((await tryOn(t.app, d.cookie, d.user.id, { lineTicket: dBusy.ticket! })).statusCode).toBe(200);
    expect(await ledger(t.app, d.user.id)).toEqual({ trialsUsed: 1, tryons: 1, events: ['trial_spend'] });
  });

  it('holds at most a few tickets per shopper: pressing again and again gives back the shopper’s own place', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({
      engine,
      env: { ENGINE_CONCURRENCY: '1', ENGINE_QUEUE_LIMIT: '0', ENGINE_LINE_TICKETS_PER_USER: '4' },
    });
    const [a, greedy, other] = [await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);
    const answers = [];
    for (let i = 0; i < 7; i++) {
      const res = await tryOn(t.app, greedy.cookie, greedy.user.id);
      expect(res.statusCode).toBe(503);
      answers.push(EngineBusyResponseSchema.parse(res.json()));
    }
    expect(new Set(answers.map((b) => b.ticket)).size).toBe(4);
    expect(answers.map((b) => b.place)).toEqual([1, 2, 3, 4, 1, 1, 1]);
    // Someone else is not pushed back by the presses past the bound.
    expect(EngineBusyResponseSchema.parse((await tryOn(t.app, other.cookie, other.user.id)).json()).place).toBe(5);
    expect(await ledger(t.app, greedy.user.id)).toEqual({ trialsUsed: 0, tryons: 0, events: [] });
    engine.release();
    expect((await running).statusCode).toBe(200);
  });

  it('holds at most a few tickets per client address; past it, 429 TOO_MANY_REQUESTS (a limit on that client, not 503)', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({
      engine,
      env: { ENGINE_CONCURRENCY: '1', ENGINE_QUEUE_LIMIT: '0', ENGINE_LINE_TICKETS_PER_ADDRESS: '3' },
    });
    const a = await signIn(t.app);
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);
    const shoppers = [];
    for (let i = 0; i < 5; i++) shoppers.push(await signIn(t.app, undefined, '198.51.100.60'));
    const answers = [];
    for (const s of shoppers) {
      const res = await tryOnFrom(t.app, '198.51.100.60', s.cookie, s.user.id);
      expect(res.headers['retry-after']).toBeDefined();
      answers.push(`${res.statusCode} ${res.json<{ code: string }>().code}`);
      if (res.statusCode === 503) expect(EngineBusyResponseSchema.parse(res.json()).ticket).toBeDefined();
    }
    // Three places kept (busy, with tickets); past the address's bound, a limit on that client.
    expect(answers).toEqual([
      '503 ENGINE_BUSY',
      '503 ENGINE_BUSY',
      '503 ENGINE_BUSY',
      '429 TOO_MANY_REQUESTS',
      '429 TOO_MANY_REQUESTS',
    ]);
    const elsewhere = await signIn(t.app, undefined, '203.0.113.77');
    const res = await tryOnFrom(t.app, '203.0.113.77', elsewhere.cookie, elsewhere.user.id);
    expect(EngineBusyResponseSchema.parse(res.json())).toMatchObject({ place: 4 });
    engine.release();
    expect((await running).statusCode).toBe(200);
  });

  it('leaving while away gives the place up at once: nobody waits for it, and only its holder can', async () => {
    // Named as a hosted engine: a long Retry-After, so c would still be due back.
    const engine = createEngineDouble({ held: true, id: 'nano-banana' });
    const t = await make({ engine, env: { ENGINE_CONCURRENCY: '1', ENGINE_QUEUE_LIMIT: '0' } });
    const [a, c, d, mallory] = [await signIn(t.app), await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    const running = tryOn(t.app, a.cookie, a.user.id);
    await expect.poll(() => engine.calls.length).toBe(1);
    const cBusy = EngineBusyResponseSchema.parse((await tryOn(t.app, c.cookie, c.user.id)).json());
    const dBusy = EngineBusyResponseSchema.parse((await tryOn(t.app, d.cookie, d.user.id)).json());
    expect([cBusy.place, dBusy.place]).toEqual([1, 2]);

    const leave = (cookie: string, ticket: string) =>
      postJson(t.app, '/api/tryon-line/leave', { ticket, api: engine.id }, cookie);
    // Someone else's ticket gives nothing up.
    const stolen = await leave(mallory.cookie, cBusy.ticket!);
    expect(stolen.statusCode).toBe(200);
    expect(LeaveLineResponseSchema.parse(stolen.json()).left).toBe(false);
    expectApiError(await postJson(t.app, '/api/tryon-line/leave', { ticket: cBusy.ticket }), 401, 'UNAUTHORIZED');
    expectApiError(await leave(c.cookie, 'not a ticket'), 400, 'VALIDATION_ERROR');
    // c presses "Leave the line" while away.
    expect(LeaveLineResponseSchema.parse((await leave(c.cookie, cBusy.ticket!)).json()).left).toBe(true);
    expect(LeaveLineResponseSchema.parse((await leave(c.cookie, cBusy.ticket!)).json()).left).toBe(false);

    engine.release();
    expect((await running).statusCode).toBe(200);
    // The slot is not kept for c: d, next, gets it at once.
    expect((await tryOn(t.app, d.cookie, d.user.id, { lineTicket: dBusy.ticket! })).statusCode).toBe(200);
    // c's ticket is gone: back with it, c joins at the end like a newcomer (and is let in, the line being empty).
    expect((await tryOn(t.app, c.cookie, c.user.id, { lineTicket: cBusy.ticket! })).statusCode).toBe(200);
    expect(await ledger(t.app, c.user.id)).toEqual({ trialsUsed: 1, tryons: 1, events: ['trial_spend'] });
  });
});
