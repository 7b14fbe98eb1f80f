/**
 * POST /api/webhooks/paddle as a receiver, on SQLite and PostgreSQL: the Paddle-Signature check (wrong
 * secret, tampered or re-serialised body, stale timestamp, rotation), what is recorded of each event
 * (ignored types without personal data, the verified payload of those acted on), and a database failure
 * answering 500 so that Paddle retries. Notifications are built by @aidressup/paddle-stand-in (see
 * webhooks-paddle.fixtures.ts), shaped like Paddle Billing's and signed with a test secret.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { envelope, signedHeaders, transactionData } from '@aidressup/paddle-stand-in';
import { signatureHeader } from '../billing/paddle/signature.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { createUser } from '../repositories/users.js';
import { expectApiError } from '../test/api-error.js';
import { DATABASE_KINDS, openTestDatabase } from '../test/databases.js';
import { PADDLE, SECRET, webhookTestbed } from './webhooks-paddle.fixtures.js';
import { paddleWebhookRoutes } from './webhooks-paddle.js';

describe.each(DATABASE_KINDS)('POST /api/webhooks/paddle (%s)', (kind) => {
  const t = webhookTestbed(kind);
  const { post, credits, eventCount, purchase } = t;

  describe('signature', () => {
    it('refuses a wrong secret and grants nothing', async () => {
      const n = purchase('credits_200');
      const raw = JSON.stringify(n);
      const res = await post(raw, signedHeaders('not-the-secret', raw));
      expectApiError(res, 400, 'INVALID_SIGNATURE', 'Invalid signature.');
      expect(await credits()).toBe(0);
      expect(await eventCount(n.event_id)).toBe(0);
    });

    it('refuses a tampered body', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const headers = signedHeaders(SECRET, raw);
      const tampered = raw.replace(PADDLE.prices.weekly, PADDLE.prices.yearly);
      expect(tampered).not.toBe(raw);
      const res = await post(tampered, headers);
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('refuses a body re-serialised with different whitespace', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const res = await post(JSON.stringify(n, null, 2), signedHeaders(SECRET, raw));
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('refuses a stale timestamp (older than 5 minutes)', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const res = await post(raw, {
        'content-type': 'application/json',
        'paddle-signature': signatureHeader(SECRET, raw, Date.now() / 1000 - 6 * 60),
      });
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
      // … but one signed 4 minutes ago is fine.
      const ok = await post(raw, {
        'content-type': 'application/json',
        'paddle-signature': signatureHeader(SECRET, raw, Date.now() / 1000 - 4 * 60),
      });
      expect(ok.statusCode).toBe(200);
      expect(await credits()).toBe(20);
    });

    it('refuses a missing or garbled header', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      expect((await post(raw, { 'content-type': 'application/json' })).statusCode).toBe(400);
      expect(
        (await post(raw, { 'content-type': 'application/json', 'paddle-signature': 'ts=abc;h1=zz' })).statusCode,
      ).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('accepts either secret during a rotation (several h1 values)', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      const good = signedHeaders(SECRET, raw)['paddle-signature']!;
      const old = signedHeaders('previous-secret', raw)['paddle-signature']!;
      const ts = good.split(';')[0]!;
      const header = `${ts};${old.split(';')[1]!};${good.split(';')[1]!}`;
      expect((await post(raw, { 'content-type': 'application/json', 'paddle-signature': header })).statusCode).toBe(
        200,
      );
      expect(await credits()).toBe(20);
    });

    it('takes the raw body whatever the content type says', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      const res = await post(raw, { ...signedHeaders(SECRET, raw), 'content-type': 'text/plain' });
      expect(res.statusCode).toBe(200);
      expect(await credits()).toBe(20);
    });

    it('refuses a correctly signed body that is not a notification', async () => {
      for (const raw of ['not json at all', JSON.stringify({ hello: 'world' })]) {
        const res = await post(raw, signedHeaders(SECRET, raw));
        expectApiError(res, 400, 'VALIDATION_ERROR');
      }
    });
  });

  it('ignores event types it does not handle, and records them', async () => {
    const n = envelope('customer.updated', {
      id: 'ctm_01aidressuptestcustomer0',
      email: 'shopper@example.com',
      status: 'active',
    });
    const res = await post(n);
    expect(res.statusCode).toBe(200);
    expect(await eventCount(n.event_id)).toBe(1);
    const row = await t.db
      .selectFrom('billing_events')
      .selectAll()
      .where('event_id', '=', n.event_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'paddle', event_type: 'customer.updated' });
    expect(row.processed_at).not.toBeNull();
    expect(row.payload).not.toContain('shopper@example.com'); // personal data of events we ignore is not kept
  });

  it('keeps the verified payload of the events it acts on', async () => {
    const n = purchase('credits_200');
    await post(n);
    const row = await t.db
      .selectFrom('billing_events')
      .selectAll()
      .where('event_id', '=', n.event_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.payload)).toEqual(JSON.parse(JSON.stringify(n)));
    expect(row.occurred_at).toBe(new Date(n.occurred_at).toISOString());
  });
});

describe('POST /api/webhooks/paddle when the database fails', () => {
  it('answers 500 so Paddle retries, and grants nothing', async () => {
    const handle = await openTestDatabase('sqlite');
    const app = Fastify({ logger: false });
    await app.register(paddleWebhookRoutes, { db: handle.db, paddle: PADDLE });
    await app.ready();
    const user = await createUser(handle.db, {
      deviceId: 'dev-failing-db',
      deviceInfo: {},
      signupIpHash: null,
      freeTrialsUsed: 0,
      freeTrialsWithheld: null,
      now: new Date(),
    });
    // Break the ledger: the grant's insert fails inside the transaction.
    await handle.db.schema.dropTable('credit_events').execute();
    const raw = JSON.stringify(
      envelope(
        'transaction.completed',
        transactionData({
          price: { id: PADDLE.prices.credits_200, amount: '3999', description: '200 Credits', interval: null },
          customData: { userId: user.id },
        }),
      ),
    );
    const res = await app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: signedHeaders(SECRET, raw),
    });
    expectApiError(res, 500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again.');
    expect(res.body).not.toMatch(/credit_events|stack|at /);
    // The transaction rolled back: no grant and no event record, so Paddle's retry can succeed.
    expect(await handle.db.selectFrom('credit_grants').select('id').execute()).toHaveLength(0);
    expect(await handle.db.selectFrom('billing_events').select('id').execute()).toHaveLength(0);
    await app.close();
    await handle.close();
  });
});
