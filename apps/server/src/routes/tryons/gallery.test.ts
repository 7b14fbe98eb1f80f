/**
 * My Gallery on SQLite and PostgreSQL: pages by cursor, deleting a result (owner only; the file
 * and the row gone), sharing it by a public page and image that need no session, stopping
 * sharing, and a share ending with the result's retention.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteTryOnResponseSchema,
  ShareTryOnResponseSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
  UnshareTryOnResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps } from '../../test/app.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';
import { completeTryOn, grantCredits, reserveTryOn } from '../../ledger/ledger.js';
import { findTryOn } from '../../repositories/tryons.js';
import { newResultName } from '../../tryon/results.js';
import { runRetention } from '../../services/retention.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

/** One try-on through the route and the engine double; its answer. */
async function tryOn(app: FastifyInstance, cookie: string, userId: string, category = 'upper_body') {
  const res = await postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category,
      userId,
    },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return TryOnResponseSchema.parse(res.json());
}

async function list(app: FastifyInstance, cookie: string, query = '') {
  const res = await app.inject({ method: 'GET', url: `/api/tryons${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return TryOnListResponseSchema.parse(res.json());
}

const del = (app: FastifyInstance, url: string, cookie?: string) =>
  app.inject({ method: 'DELETE', url, ...(cookie ? { headers: { cookie } } : {}) });
const share = (app: FastifyInstance, id: string, cookie?: string) =>
  app.inject({ method: 'POST', url: `/api/tryons/${id}/share`, ...(cookie ? { headers: { cookie } } : {}) });
const get = (app: FastifyInstance, url: string) => app.inject({ method: 'GET', url });

describe.each(DATABASE_KINDS)('My Gallery on %s', (kind) => {
  const make = testApps(kind);

  it('lists results with their engine and no share link, and refuses a malformed cursor or limit', async () => {
    const { app } = await make();
    const { cookie, user } = await signIn(app);
    const made = await tryOn(app, cookie, user.id, 'dresses');
    const page = await list(app, cookie);
    expect(page.nextCursor).toBeNull();
    expect(page.items).toEqual([
      expect.objectContaining({
        id: made.tryonId,
        imageUrl: made.imageUrl,
        category: 'dresses',
        engine: 'test-double',
        shareUrl: null,
      }),
    ]);

    for (const query of [
      '?before=',
      '?before=not%20base64',
      '?before=Zm9v',
      `?before=${'A'.repeat(201)}`,
      '?limit=0',
      '?limit=101',
      '?limit=2.5',
      '?limit=x',
    ]) {
      const res = await app.inject({ method: 'GET', url: `/api/tryons${query}`, headers: { cookie } });
      expectApiError(res, 400, 'VALIDATION_ERROR', { label: query });
    }
    // A well-formed cursor text that is not a page boundary the server wrote.
    const forged = Buffer.from('2026-05-01T10:00:00.000Z|abc|x').toString('base64url');
    expect(
      (await app.inject({ method: 'GET', url: `/api/tryons?before=${forged}`, headers: { cookie } })).statusCode,
    ).toBe(400);
  });

  it('pages past 100 results: 100 with a cursor, then the last 5, newest first, none twice', async () => {
    const { app, config, clock } = await make();
    const { cookie, user } = await signIn(app);
    const other = await signIn(app);
    await grantCredits(app.db, {
      userId: user.id,
      source: 'admin',
      planId: null,
      amount: 110,
      expiresAt: null,
      externalRef: null,
      now: clock.now,
    });
    const start = clock.now.getTime();
    const made: string[] = [];
    for (let i = 0; i < 105; i++) {
      // Few distinct times: rows created in the same millisecond are ordered by id.
      const now = new Date(start + Math.floor(i / 40) * 1000);
      const reserved = await reserveTryOn(app.db, {
        userId: user.id,
        freeTrialsLimit: config.freeTrialsLimit,
        category: 'lower_body',
        engine: 'test-double',
        now,
      });
      if (!reserved.ok) throw new Error('not reserved');
      expect(await completeTryOn(app.db, { tryonId: reserved.tryon.id, resultName: newResultName('.png'), now })).toBe(
        true,
      );
      made.push(reserved.tryon.id);
    }
    await tryOn(app, other.cookie, other.user.id);

    const first = await list(app, cookie);
    expect(first.items).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(app, cookie, `?before=${first.nextCursor}`);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();

    const ids = [...first.items, ...second.items].map((i) => i.id);
    expect(new Set(ids).size).toBe(105);
    expect(ids.sort()).toEqual([...made].sort());
    const all = [...first.items, ...second.items];
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id), `${i}`).toBe(true);
    }

    // A smaller page size walks the same list.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        app,
        cookie,
        `?limit=40${cursor ? `&before=${cursor}` : ''}`,
      );
      walked.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.map((i) => i.id));
    // A page that holds exactly what is left: no empty page after it.
    const exact = await list(app, cookie, `?limit=5&before=${first.nextCursor}`);
    expect(exact.items.map((i) => i.id)).toEqual(second.items.map((i) => i.id));
    expect(exact.nextCursor).toBeNull();
  });

  it('deletes a result for its owner only: the row, the file and the image URL are gone', async () => {
    const t = await make();
    const { app } = t;
    const owner = await signIn(app);
    const stranger = await signIn(app);
    const kept = await tryOn(app, owner.cookie, owner.user.id);
    const made = await tryOn(app, owner.cookie, owner.user.id);
    const id = made.tryonId!;
    const file = path.join(t.config.dataDir, 'files', 'results', made.imageUrl.split('/').pop()!);
    expect(fs.existsSync(file)).toBe(true);

    // Not signed in; another user; an unknown id; a malformed one.
    expect((await del(app, `/api/tryons/${id}`)).statusCode).toBe(401);
    expectApiError(await del(app, `/api/tryons/${id}`, stranger.cookie), 404, 'NOT_FOUND');
    expectApiError(await del(app, '/api/tryons/AAAAAAAAAAAAAAAAAAAAA', owner.cookie), 404, 'NOT_FOUND');
    expectApiError(await del(app, '/api/tryons/not%20an%20id', owner.cookie), 404, 'NOT_FOUND');
    expect((await get(app, made.imageUrl)).statusCode).toBe(200);
    expect(await findTryOn(app.db, id)).toBeDefined();

    const res = await del(app, `/api/tryons/${id}`, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(DeleteTryOnResponseSchema.parse(res.json())).toEqual({ success: true });
    expect(await findTryOn(app.db, id)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
    expectApiError(await get(app, made.imageUrl), 404, 'NOT_FOUND');
    expect((await list(app, owner.cookie)).items.map((i) => i.id)).toEqual([kept.tryonId]);
    // The ledger keeps the spend, without the link.
    const events = await app.db
      .selectFrom('credit_events')
      .select(['tryon_id', 'amount'])
      .where('user_id', '=', owner.user.id)
      .execute();
    expect(events.filter((e) => e.amount < 0)).toHaveLength(2);
    expect(events.some((e) => e.tryon_id === id)).toBe(false);
    // Twice: nothing left to delete.
    expectApiError(await del(app, `/api/tryons/${id}`, owner.cookie), 404, 'NOT_FOUND');
  });

  it('refuses to delete a try-on still processing (404), and deletes even when the file cannot be', async () => {
    const { app, config, clock } = await make();
    const { cookie, user } = await signIn(app);
    const reserved = await reserveTryOn(app.db, {
      userId: user.id,
      freeTrialsLimit: config.freeTrialsLimit,
      category: 'upper_body',
      engine: 'test-double',
      now: clock.now,
    });
    if (!reserved.ok) throw new Error('not reserved');
    expectApiError(await del(app, `/api/tryons/${reserved.tryon.id}`, cookie), 404, 'NOT_FOUND');
    expect((await findTryOn(app.db, reserved.tryon.id))?.status).toBe('processing');

    const made = await tryOn(app, cookie, user.id);
    const storage = app.storage as { delete: (key: string) => Promise<void> };
    const realDelete = storage.delete;
    storage.delete = async () => {
      throw new Error('store unreachable');
    };
    try {
      const res = await del(app, `/api/tryons/${made.tryonId}`, cookie);
      expect(res.statusCode).toBe(200);
    } finally {
      storage.delete = realDelete;
    }
    expect(await findTryOn(app.db, made.tryonId!)).toBeUndefined();
    expectApiError(await get(app, made.imageUrl), 404, 'NOT_FOUND');
  });

  it('shares a result by a public page and image that need no session, until the owner stops', async () => {
    const { app } = await make();
    const owner = await signIn(app);
    const stranger = await signIn(app);
    const made = await tryOn(app, owner.cookie, owner.user.id);
    const id = made.tryonId!;

    expect((await share(app, id)).statusCode).toBe(401);
    expectApiError(await share(app, id, stranger.cookie), 404, 'NOT_FOUND');
    expectApiError(await share(app, 'AAAAAAAAAAAAAAAAAAAAA', owner.cookie), 404, 'NOT_FOUND');

    const first = await share(app, id, owner.cookie);
    expect(first.statusCode).toBe(200);
    const { url } = ShareTryOnResponseSchema.parse(first.json());
    // No PUBLIC_URL: the request's own origin, as it is this machine.
    expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/s\/[A-Za-z0-9_-]{43}$/);
    expect(ShareTryOnResponseSchema.parse((await share(app, id, owner.cookie)).json()).url).toBe(url);
    expect((await list(app, owner.cookie)).items[0]?.shareUrl).toBe(url);

    const { pathname } = new URL(url);
    const page = await get(app, pathname);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const html = page.body;
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<meta property="og:title" content="A look made with AI Dress Up">');
    expect(html).toContain('<meta property="og:type" content="website">');
    expect(html).toContain(`<meta property="og:image" content="${url}/image">`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain(`<img src="${url}/image"`);
    expect(html).toMatch(/<a class="cta" href="\/">Try it yourself<\/a>/);
    expect(html).toContain('AI Dress Up');
    expect(html).not.toContain('/api/results/');
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);

    expect(html).toContain('<html lang="en">');
    expect(String(page.headers.vary)).toMatch(/Cookie, Accept-Language/);
    // In the visitor's language: the web app's language cookie first, then Accept-Language.
    const spanish = await app.inject({
      method: 'GET',
      url: pathname,
      headers: { cookie: 'aidressup_locale=es', 'accept-language': 'ar' },
    });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.body).toContain('<html lang="es" dir="ltr">');
    expect(spanish.body).toContain('<meta property="og:title" content="Un look creado con AI Dress Up">');
    expect(spanish.body).toMatch(/<a class="cta" href="\/">Pruébalo tú<\/a>/);
    expect(spanish.body).toContain(`<img src="${url}/image"`);
    const arabic = await app.inject({ method: 'GET', url: pathname, headers: { 'accept-language': 'ar-EG,ar;q=0.9' } });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.body).toContain('إطلالة صُمّمت باستخدام');
    const unknown = await app.inject({
      method: 'GET',
      url: `/s/${'A'.repeat(43)}`,
      headers: { 'accept-language': 'de' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('<html lang="de" dir="ltr">');
    expect(unknown.body).toContain('Dieser Link ist nicht verfügbar');

    const image = await get(app, `${pathname}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\/(png|jpeg|webp)/);
    expect(image.headers['set-cookie']).toBeUndefined();
    expect(image.rawPayload.equals((await get(app, made.imageUrl)).rawPayload)).toBe(true);

    // A malformed or unknown token: the HTML 404 page; the image a 404.
    for (const bad of ['/s/short', `/s/${'A'.repeat(43)}`]) {
      const res = await get(app, bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('This link is not available');
      expect((await get(app, `${bad}/image`)).statusCode).toBe(404);
    }

    // Only the owner stops it.
    expectApiError(await del(app, `/api/tryons/${id}/share`, stranger.cookie), 404, 'NOT_FOUND');
    expect((await get(app, pathname)).statusCode).toBe(200);
    const stopped = await del(app, `/api/tryons/${id}/share`, owner.cookie);
    expect(stopped.statusCode).toBe(200);
    expect(UnshareTryOnResponseSchema.parse(stopped.json())).toEqual({ success: true });
    const gone = await get(app, pathname);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain('This link is not available');
    expectApiError(await get(app, `${pathname}/image`), 404, 'NOT_FOUND');
    expect((await list(app, owner.cookie)).items[0]?.shareUrl).toBeNull();
    // The owner's own image URL still works; sharing again makes a new link.
    expect((await get(app, made.imageUrl)).statusCode).toBe(200);
    const again = ShareTryOnResponseSchema.parse((await share(app, id, owner.cookie)).json()).url;
    expect(again).not.toBe(url);
    expect((await get(app, new URL(again).pathname)).statusCode).toBe(200);
    // Stopping twice is fine; an unknown id is not found.
    expect((await del(app, `/api/tryons/${id}/share`, owner.cookie)).statusCode).toBe(200);
    expect((await del(app, `/api/tryons/${id}/share`, owner.cookie)).statusCode).toBe(200);
    expectApiError(await del(app, '/api/tryons/AAAAAAAAAAAAAAAAAAAAA/share', owner.cookie), 404, 'NOT_FOUND');
  });

  it('builds share links on PUBLIC_URL, never on the request’s Host', async () => {
    const { app } = await make({ env: { PUBLIC_URL: 'https://dress.example/app' } });
    const { cookie, user } = await signIn(app);
    const made = await tryOn(app, cookie, user.id);
    const res = await app.inject({
      method: 'POST',
      url: `/api/tryons/${made.tryonId}/share`,
      headers: { cookie, host: 'evil.example' },
    });
    const { url } = ShareTryOnResponseSchema.parse(res.json());
    expect(url).toMatch(/^https:\/\/dress\.example\/s\/[A-Za-z0-9_-]{43}$/);
    const page = await app.inject({ method: 'GET', url: new URL(url).pathname, headers: { host: 'evil.example' } });
    expect(page.body).toContain(`<meta property="og:image" content="${url}/image">`);

    const noConfig = await make();
    const other = await signIn(noConfig.app);
    const theirs = await tryOn(noConfig.app, other.cookie, other.user.id);
    const spoofed = await noConfig.app.inject({
      method: 'POST',
      url: `/api/tryons/${theirs.tryonId}/share`,
      headers: { cookie: other.cookie, host: 'evil.example' },
    });
    expect(ShareTryOnResponseSchema.parse(spoofed.json()).url).toMatch(/^http:\/\/localhost:\d+\/s\//);
  });

  it('ends a share with the result: expired, then cleared by retention', async () => {
    const { app, clock } = await make();
    const { cookie, user } = await signIn(app);
    const made = await tryOn(app, cookie, user.id);
    const { url } = ShareTryOnResponseSchema.parse((await share(app, made.tryonId!, cookie)).json());
    const { pathname } = new URL(url);
    expect((await get(app, pathname)).statusCode).toBe(200);

    clock.advance(30 * 86_400_000 + 1000);
    expect((await get(app, pathname)).statusCode).toBe(404);
    expectApiError(await get(app, `${pathname}/image`), 404, 'NOT_FOUND');
    // An expired result cannot be shared again.
    expectApiError(await share(app, made.tryonId!, cookie), 404, 'NOT_FOUND');

    await runRetention({ db: app.db, storage: app.storage, clock: () => clock.now });
    const row = await findTryOn(app.db, made.tryonId!);
    expect(row).toMatchObject({ result_name: null, share_token: null });
    expect((await get(app, pathname)).statusCode).toBe(404);
  });
});
