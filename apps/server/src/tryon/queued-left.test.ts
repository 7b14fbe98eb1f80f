/**
 * Queue mode (REDIS_URL), on SQLite and PostgreSQL: a shopper who goes away after the try-on was
 * charged and put on the queue, before any worker took it (the engine has not started), is
 * refunded at once and the job leaves the queue; nothing reaches the gallery.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { jpeg, multipart, png } from '../test/images.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';

const REDIS = redisServerAvailable();

let PERSON: Buffer;
let GARMENT: Buffer;
let redis: TestRedis | undefined;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let redisDb = 0;
async function freshRedisUrl(): Promise<string> {
  const url = `${redis!.url}/${++redisDb % 16}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  await client.quit();
  return url;
}

describe.skipIf(!REDIS).each(DATABASE_KINDS)('a queued try-on whose shopper leaves, on %s', (kind) => {
  const build = testApps(kind, {}, { closeAfter: 'each' });

  it('is refunded at once and taken off the queue when no worker has taken it yet', async () => {
    // No worker runs: the job stays on the queue (before any worker announced its slots, the line
    // lets everyone in).
    const t = await build({ env: { REDIS_URL: await freshRedisUrl() } });
    const { cookie, user } = await signIn(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const form = multipart({
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, contentType: 'image/png' },
      category: 'upper_body',
      userId: user.id,
    });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/process-image',
      headers: { ...form.headers, cookie, 'content-length': String(form.payload.length) },
    });
    req.on('error', () => undefined);
    req.end(form.payload);
    const rows = () => t.app.db.selectFrom('tryons').select(['id', 'status']).where('user_id', '=', user.id).execute();
    // Charged and queued.
    await expect.poll(async () => (await rows()).map((r) => r.status), { timeout: 10_000 }).toEqual(['processing']);
    await expect.poll(async () => (await t.app.tryOnQueue!.counts()).waiting).toBe(1);

    req.destroy();
    await expect.poll(async () => (await rows()).map((r) => r.status), { timeout: 5_000 }).toEqual(['failed']);
    expect((await t.app.tryOnQueue!.counts()).waiting).toBe(0);
    const events = await t.app.db.selectFrom('credit_events').select('type').where('user_id', '=', user.id).execute();
    expect(events.map((e) => e.type).sort()).toEqual(['trial_refund', 'trial_spend']);
    const after = await t.app.db
      .selectFrom('users')
      .select('free_trials_used')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.free_trials_used).toBe(0);
  });
});
