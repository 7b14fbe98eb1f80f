/**
 * POST /api/webhooks/paddle: Paddle Billing notifications, applied only with a valid signature.
 *
 * An encapsulated plugin, so its raw-body parser applies to this route only: the signature is
 * computed over the exact bytes Paddle sent. Register it only when Paddle billing is configured.
 *
 * Answers: 200 once the notification is applied (or was applied before, or needs nothing);
 * 400 for a missing, malformed, stale or wrong signature, or a body that is not a notification
 * (nothing is granted); 500 when something inside fails, so Paddle retries it later.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ERROR_STATUS, MESSAGES, type ErrorCode } from '@aidressup/contract';
import type { PaddleConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { EnvelopeSchema, parseNotification } from '../billing/paddle/events.js';
import { handleNotification } from '../billing/paddle/handlers.js';
import { SIGNATURE_HEADER, verifySignature } from '../billing/paddle/signature.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { ERROR_RESPONSES } from '../http/schemas.js';

export interface PaddleWebhookOptions {
  db: Kysely<Database>;
  paddle: PaddleConfig;
  /** Clock for the signature window and the records (milliseconds); injectable for tests. */
  now?: () => number;
  /** Largest body accepted, in bytes. */
  bodyLimit?: number;
}

const PaddleWebhookResponseSchema = z.object({
  success: z.literal(true),
  received: z.literal(true),
  /** True when this notification had been applied before (nothing was done again). */
  duplicate: z.boolean(),
});

function fail(reply: FastifyReply, code: ErrorCode, message: string) {
  return reply.code(ERROR_STATUS[code]).send({ success: false, code, error: message });
}

export async function paddleWebhookRoutes(app: FastifyInstance, opts: PaddleWebhookOptions): Promise<void> {
  const now = opts.now ?? Date.now;
  const bodyLimit = opts.bodyLimit ?? 1024 * 1024;

  // The route's schemas are zod schemas, also when this plugin is registered on its own.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Keep the body as the exact bytes received, whatever the content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    PADDLE_WEBHOOK_PATH,
    {
      bodyLimit,
      // Signed by Paddle, sent by Paddle's servers: no cookie, no site to check.
      config: { rateLimit: false, anySite: true },
      schema: {
        summary: 'Paddle Billing notifications (signed; the raw body is checked against the signature)',
        tags: ['billing'],
        // The body is read as raw bytes for the signature, so the route checks it itself.
        documented: {
          body: EnvelopeSchema.loose(),
          headers: z.object({
            [SIGNATURE_HEADER]: z
              .string()
              .describe('ts=<unix seconds>;h1=<hex HMAC-SHA256 of the timestamp and the raw body>'),
          }),
        },
        response: { 200: PaddleWebhookResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const verified = verifySignature(request.headers[SIGNATURE_HEADER], raw, opts.paddle.webhookSecret, { now });
      if (!verified.ok) {
        request.log.warn({ reason: verified.reason }, 'paddle webhook refused: signature');
        return fail(reply, 'INVALID_SIGNATURE', MESSAGES.invalidSignature);
      }

      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        request.log.error('paddle webhook: signed body is not JSON');
        return fail(reply, 'VALIDATION_ERROR', MESSAGES.invalidRequest);
      }
      const parsed = parseNotification(body);
      if (!parsed.ok) {
        // Signed by Paddle but not what we expect: refuse, so it stays visible (and retried) in
        // Paddle's notification log rather than being silently dropped.
        request.log.error({ problem: parsed.error }, 'paddle webhook: notification does not match its schema');
        return fail(reply, 'VALIDATION_ERROR', MESSAGES.invalidRequest);
      }

      try {
        const outcome = await handleNotification(
          { db: opts.db, paddle: opts.paddle, log: request.log, now: () => new Date(now()) },
          parsed.event,
          raw.toString('utf8'),
        );
        return reply.code(200).send({ success: true, received: true, duplicate: outcome.result === 'duplicate' });
      } catch (err) {
        request.log.error(
          { err, eventId: parsed.event.envelope.event_id, eventType: parsed.event.type },
          'paddle webhook: handling failed',
        );
        return fail(reply, 'INTERNAL_ERROR', MESSAGES.internalError);
      }
    },
  );
}
