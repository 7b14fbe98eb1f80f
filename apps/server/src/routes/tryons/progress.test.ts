/** GET /api/tryon-progress/{progressId}: a try-on's stages as Server-Sent Events, on a listening server. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ESTIMATE_SECONDS, TryOnResponseSchema, type TryOnProgressEvent } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { signIn, testApps, type TestApp } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, png } from '../../test/images.js';
import { ProgressHub } from '../../tryon/progress.js';
import { openStream } from '../../test/sse.js';

let PERSON: Buffer;
let GARMENT: Buffer;
const make = testApps('sqlite');
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

async function listen(t: TestApp): Promise<string> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

async function postTryOn(base: string, cookie: string, userId: string, progressId?: string, engine?: string) {
  const form = new FormData();
  form.append('userImage', new Blob([new Uint8Array(PERSON)], { type: 'image/jpeg' }), 'person.jpg');
  form.append('clothingImage', new Blob([new Uint8Array(GARMENT)], { type: 'image/png' }), 'garment.png');
  form.append('category', 'upper_body');
  form.append('userId', userId);
  if (progressId !== undefined) form.append('progressId', progressId);
  if (engine) form.append('api', engine);
  const res = await fetch(`${base}/api/process-image`, { method: 'POST', headers: { cookie }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
  ]);

describe('try-on progress (in-process engine)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await make({
      engine: createEngineDouble({ delayMs: 300 }),
      progress: { heartbeatMs: 200, waitMs: 1_500 },
    });
    base = await listen(t);
  });

  it('a stream opened before the post gets queued, reading, fitting, finishing, done in order, then ends', async () => {
    const { cookie, user } = await signIn(t.app);
    const progressId = randomUUID();
    const stream = await openStream(`${base}/api/tryon-progress/${progressId}`, cookie);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // Held open, with comment lines, until the post comes.
    await expect.poll(() => stream.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(1);
    expect(stream.events).toEqual([]);

    const res = await postTryOn(base, cookie, user.id, progressId);
    expect(res.status).toBe(200);
    TryOnResponseSchema.parse(res.body);
    await within(stream.ended, 5_000, 'stream end');
    expect(stream.events.map((e) => e.stage)).toEqual(['queued', 'reading', 'fitting', 'finishing', 'done']);
    for (const e of stream.events) expect(e.estimateSeconds).toEqual(ENGINE_ESTIMATE_SECONDS.local);
    const elapsed = stream.events.map((e) => e.elapsedMs);
    expect([...elapsed].sort((a, b) => a - b)).toEqual(elapsed);
    // The engine took 300 ms between fitting and finishing.
    expect(elapsed[3]! - elapsed[2]!).toBeGreaterThanOrEqual(250);

    // A late subscriber gets the latest event at once, and the stream ends.
    const late = await openStream(`${base}/api/tryon-progress/${progressId}`, cookie);
    await within(late.ended, 2_000, 'late stream end');
    expect(late.events.map((e) => e.stage)).toEqual(['done']);
  });

  it('a stream opened during the try-on gets the current stage at once and the rest', async () => {
    // The engine answers when the test says: the stream is opened while it works.
    const engine = createEngineDouble({ held: true });
    const d = await make({ engine, progress: { heartbeatMs: 200, waitMs: 1_500 } });
    const dbase = await listen(d);
    const { cookie, user } = await signIn(d.app);
    const progressId = randomUUID();
    const post = postTryOn(dbase, cookie, user.id, progressId);
    await expect.poll(() => engine.calls.length).toBe(1);
    const stream = await openStream(`${dbase}/api/tryon-progress/${progressId}`, cookie);
    await expect.poll(() => stream.events.map((e) => e.stage)).toEqual(['fitting']);
    engine.release();
    expect((await post).status).toBe(200);
    await within(stream.ended, 5_000, 'stream end');
    const stages = stream.events.map((e) => e.stage);
    expect(stages.at(-1)).toBe('done');
    expect(stages.length).toBeGreaterThanOrEqual(2);
  });

  it("another user's session never sees the events: 404 once posted, nothing before", async () => {
    const owner = await signIn(t.app);
    const other = await signIn(t.app);
    const progressId = randomUUID();
    // Subscribed before the post: waits, sees nothing, times out cleanly.
    const early = await openStream(`${base}/api/tryon-progress/${progressId}`, other.cookie);
    expect(early.status).toBe(200);
    expect((await postTryOn(base, owner.cookie, owner.user.id, progressId)).status).toBe(200);
    const afterwards = await openStream(`${base}/api/tryon-progress/${progressId}`, other.cookie);
    expect(afterwards.status).toBe(404);
    await within(early.ended, 4_000, 'the waiting stream to time out');
    expect(early.events).toEqual([]);
    expect(early.comments).toContain('no progress, closing');

    // Nor can the other user take the id over by posting with it: the progress stays the owner's.
    expect((await postTryOn(base, other.cookie, other.user.id, progressId)).status).toBe(200);
    const ownerView = await openStream(`${base}/api/tryon-progress/${progressId}`, owner.cookie);
    await within(ownerView.ended, 2_000, 'owner stream end');
    expect(ownerView.events.map((e) => e.stage)).toEqual(['done']);
  });

  it('a failed try-on ends with failed', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('PERSON_NOT_FOUND') });
    const f = await make({ engine, progress: { heartbeatMs: 200, waitMs: 1_500 } });
    const fbase = await listen(f);
    const { cookie, user } = await signIn(f.app);
    const progressId = randomUUID();
    const stream = await openStream(`${fbase}/api/tryon-progress/${progressId}`, cookie);
    expect((await postTryOn(fbase, cookie, user.id, progressId)).status).toBe(422);
    await within(stream.ended, 5_000, 'stream end');
    expect(stream.events.map((e) => e.stage)).toEqual(['queued', 'reading', 'fitting', 'failed']);
  });

  it('a post refused before it runs (no credits) ends the stream with failed', async () => {
    const n = await make({
      env: { FREE_TRIALS_LIMIT: '0' },
      progress: { heartbeatMs: 200, waitMs: 1_500 },
    });
    const nbase = await listen(n);
    const { cookie, user } = await signIn(n.app);
    const progressId = randomUUID();
    const stream = await openStream(`${nbase}/api/tryon-progress/${progressId}`, cookie);
    expect((await postTryOn(nbase, cookie, user.id, progressId)).status).toBe(402);
    await within(stream.ended, 3_000, 'stream end');
    expect(stream.events.map((e) => e.stage)).toEqual(['failed']);
  });

  it('answers 400 for an id that is not a UUID (on the stream and on the post), 401 without a session', async () => {
    const { cookie, user } = await signIn(t.app);
    const bad = await openStream(`${base}/api/tryon-progress/not-a-uuid`, cookie);
    expect(bad.status).toBe(400);
    expect((await postTryOn(base, cookie, user.id, 'not-a-uuid')).status).toBe(400);
    const anonymous = await openStream(`${base}/api/tryon-progress/${randomUUID()}`, '');
    expect(anonymous.status).toBe(401);
  });

  it('a stream whose try-on never comes ends after the wait, and the client closing it frees it', async () => {
    const { cookie } = await signIn(t.app);
    const stale = await openStream(`${base}/api/tryon-progress/${randomUUID()}`, cookie);
    expect(stale.status).toBe(200);
    await within(stale.ended, 4_000, 'stale stream end');
    expect(stale.events).toEqual([]);

    const closed = await openStream(`${base}/api/tryon-progress/${randomUUID()}`, cookie);
    closed.close();
    await within(closed.ended, 2_000, 'closed stream');
  });
});

describe('closing the server', () => {
  it('ends the open progress streams instead of waiting for them', async () => {
    const c = await make({ progress: { heartbeatMs: 200 } });
    const cbase = await listen(c);
    const { cookie } = await signIn(c.app);
    const stream = await openStream(`${cbase}/api/tryon-progress/${randomUUID()}`, cookie);
    expect(stream.status).toBe(200);
    await within(c.app.close(), 5_000, 'closing the app');
    await within(stream.ended, 2_000, 'stream end');
  });
});

describe('the progress hub', () => {
  it('keeps ids to their owner, moves stages forward only, and forgets after the TTL or past the size bound', () => {
    let now = 0;
    const hub = new ProgressHub({ ttlMs: 1_000, maxEntries: 2, now: () => now });
    const ev = (stage: TryOnProgressEvent['stage']) => ({ stage, estimateSeconds: { min: 1, max: 5 }, elapsedMs: 0 });
    const seen: string[] = [];
    const sub = hub.subscribe('a', 'u1', (e) => seen.push(e.stage));
    const stranger: string[] = [];
    hub.subscribe('a', 'u2', (e) => stranger.push(e.stage));
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('queued') })).toBe(true);
    expect(hub.publish({ progressId: 'a', userId: 'u2', event: ev('fitting') })).toBe(false);
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('queued') })).toBe(false);
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('fitting') })).toBe(true);
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('reading') })).toBe(false);
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('done') })).toBe(true);
    expect(hub.publish({ progressId: 'a', userId: 'u1', event: ev('failed') })).toBe(false);
    expect(seen).toEqual(['queued', 'fitting', 'done']);
    expect(stranger).toEqual([]);
    expect(hub.subscribe('a', 'u2', () => undefined).ok).toBe(false);
    if (sub.ok) sub.unsubscribe();

    now = 1_001;
    // Expired: the id is free again.
    expect(hub.subscribe('a', 'u2', () => undefined).ok).toBe(true);
    for (const id of ['b', 'c', 'd']) hub.publish({ progressId: id, userId: 'u1', event: ev('queued') });
    expect(hub.size).toBe(2);
  });
});
