/**
 * "Make it photo-real" waits in the same line as a try-on and keeps the same promises, on SQLite
 * and PostgreSQL: a shopper who leaves (the connection closes) gives up the place and is charged
 * nothing; a busy answer's ticket, sent back as `lineTicket`, keeps the place; a shopper with
 * nothing left is refused before taking a place. The hosted engine is a held engine double named
 * `nano-banana`, the built-in one a double named `local`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineBusyResponseSchema, TryOnResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { postJson, signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

const HOSTED = 'nano-banana';

function tryOn(app: FastifyInstance, cookie: string, userId: string, api: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, contentType: 'image/png' },
      category: 'upper_body',
      userId,
      api,
    },
    cookie,
  );
}

/** A shopper with a quick preview whose photos are kept: its try-on's id. */
async function withPreview(app: FastifyInstance) {
  const shopper = await signIn(app);
  const res = await tryOn(app, shopper.cookie, shopper.user.id, 'local');
  expect(res.statusCode, res.body).toBe(200);
  const preview = TryOnResponseSchema.parse(res.json());
  expect(preview.photosKeptUntil).toBeDefined();
  return { ...shopper, previewId: preview.tryonId! };
}

const rerun = (app: FastifyInstance, cookie: string, id: string, extra: Record<string, string> = {}) =>
  postJson(app, `/api/tryons/${id}/rerun`, { api: HOSTED, ...extra }, cookie);

async function ledger(app: FastifyInstance, userId: string) {
  const user = await app.db
    .selectFrom('users')
    .select('free_trials_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await app.db.selectFrom('tryons').select(['engine', 'status']).where('user_id', '=', userId).execute();
  return { trialsUsed: user.free_trials_used, tryons: rows.map((r) => `${r.engine}:${r.status}`).sort() };
}

describe.each(DATABASE_KINDS)('"Make it photo-real" in the line on %s', (kind) => {
  const make = testApps(kind, {}, { closeAfter: 'each' });

  async function setup(env: Record<string, string> = {}) {
    const hosted = createEngineDouble({ id: HOSTED, held: true });
    const t = await make({
      engines: { local: createEngineDouble({ id: 'local' }), [HOSTED]: hosted },
      env: { ENGINE_CONCURRENCY: '1', ...env },
    });
    // Someone else's hosted try-on holds the hosted engine's one slot.
    const other = await signIn(t.app);
    const running = tryOn(t.app, other.cookie, other.user.id, HOSTED);
    await expect.poll(() => hosted.calls.length).toBe(1);
    return { t, hosted, running };
  }

  it('a shopper who leaves while waiting (the connection closes) gives up the place and is charged nothing', async () => {
    const { t, hosted, running } = await setup();
    const a = await withPreview(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const body = JSON.stringify({ api: HOSTED });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/tryons/${a.previewId}/rerun`,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie: a.cookie },
    });
    req.on('error', () => undefined);
    req.end(body);
    await expect.poll(() => t.app.tryOnLine.waiting(HOSTED)).toBe(1);
    // "Leave the line", a closed tab or the page's timeout: the connection closes.
    req.destroy();
    await expect.poll(() => t.app.tryOnLine.waiting(HOSTED)).toBe(0);

    hosted.release();
    expect((await running).statusCode).toBe(200);
    // Nobody is left in line or let in who could still run: the rerun is gone for good.
    expect(await t.app.tryOnLine.snapshot(HOSTED)).toMatchObject({ tickets: [], running: [] });
    expect(hosted.calls).toHaveLength(1);
    // Only the preview: one trial, one row.
    expect(await ledger(t.app, a.user.id)).toEqual({ trialsUsed: 1, tryons: ['local:succeeded'] });
  });

  it('a busy answer’s ticket, sent back as lineTicket, keeps the place: nobody behind overtakes it', async () => {
    // Nobody is held on the server: every wait is an ENGINE_BUSY with a ticket.
    const { t, hosted, running } = await setup({ ENGINE_QUEUE_LIMIT: '0' });
    const [a, d] = [await withPreview(t.app), await withPreview(t.app)];
    const aBusy = await rerun(t.app, a.cookie, a.previewId);
    expect(aBusy.statusCode).toBe(503);
    const aTicket = EngineBusyResponseSchema.parse(aBusy.json());
    const dTicket = EngineBusyResponseSchema.parse((await rerun(t.app, d.cookie, d.previewId)).json());
    expect([aTicket.place, dTicket.place]).toEqual([1, 2]);
    expect(aTicket.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);

    hosted.release();
    expect((await running).statusCode).toBe(200);
    // The slot is free, but d, behind a, comes back first: it is kept for a (due back).
    const dEarly = await rerun(t.app, d.cookie, d.previewId, { lineTicket: dTicket.ticket! });
    expect(dEarly.statusCode).toBe(503);
    expect(EngineBusyResponseSchema.parse(dEarly.json())).toMatchObject({ place: 2, ticket: dTicket.ticket });
    const aBack = await rerun(t.app, a.cookie, a.previewId, { lineTicket: aTicket.ticket! });
    expect(aBack.statusCode, aBack.body).toBe(200);
    expect((await rerun(t.app, d.cookie, d.previewId, { lineTicket: dTicket.ticket! })).statusCode).toBe(200);
    expect(await ledger(t.app, a.user.id)).toEqual({
      trialsUsed: 2,
      tryons: ['local:succeeded', `${HOSTED}:succeeded`],
    });
  });

  it('refuses a ticket that is not one (400), and refuses a shopper with nothing left before taking a place (402)', async () => {
    const { t, hosted, running } = await setup();
    const a = await withPreview(t.app);
    expectApiError(await rerun(t.app, a.cookie, a.previewId, { lineTicket: 'not a ticket!' }), 400, 'VALIDATION_ERROR');
    await t.app.db.updateTable('users').set({ free_trials_used: 99 }).where('id', '=', a.user.id).execute();
    const refused = await rerun(t.app, a.cookie, a.previewId);
    expectApiError(refused, 402, 'NO_CREDITS');
    expect(await t.app.tryOnLine.waiting(HOSTED)).toBe(0);
    hosted.release();
    expect((await running).statusCode).toBe(200);
  });
});
