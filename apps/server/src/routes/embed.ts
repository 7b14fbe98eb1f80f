/**
 * The "Try it on" widget of shops (docs/embed.md): the script (`GET /embed.js`), a shopper's
 * embed session (`POST /api/embed/session`), the frame's try-on (`POST /api/embed/tryon`, paid by
 * the merchant) and the merchant's usage (`GET /api/merchant/usage`, secret key). None of them
 * reads or sets a cookie: the frame works where third-party cookies are blocked.
 */
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  EMBED_RESULT_MINUTES,
  EmbedSessionRequestSchema,
  EmbedSessionResponseSchema,
  EmbedTryOnFieldsSchema,
  EmbedTryOnResponseSchema,
  GarmentUrlSchema,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  MerchantUsageQuerySchema,
  MerchantUsageResponseSchema,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { bearerToken, ownOrigins } from '../http/bearer.js';
import { watchClientGone } from '../http/client-gone.js';
import { EMBED_SCRIPT } from '../http/embed-script.js';
import { readMultipart } from '../http/multipart-form.js';
import { BinaryFile, EMBED_TRYON_ERROR_RESPONSES, ERROR_RESPONSES } from '../http/schemas.js';
import { MIN_SIDE, validateAndNormalise, type Upload } from '../services/images.js';
import { embedSessionOf, merchantBySecretKey, merchantUsage, openEmbedSession } from '../services/merchants.js';
import { asProductPhotoRefusal, garmentImageRef } from '../services/product-photo-refusals.js';
import type { Admission } from '../tryon/line/admission.js';
import { engineEstimate } from '../tryon/progress.js';

const FILE_FIELDS = ['userImage', 'clothingImage'] as const;
type FileField = (typeof FILE_FIELDS)[number];

const EmbedTryOnFormSchema = z.object({
  userImage: BinaryFile.describe('The shopper’s photo: JPG, PNG or WEBP, at most 10 MB'),
  clothingImage: BinaryFile.describe(
    'The garment’s image, as the shop’s page read it: JPG, PNG or WEBP, at most 10 MB',
  ),
  ...EmbedTryOnFieldsSchema.shape,
  garmentUrl: GarmentUrlSchema.optional().describe(
    'The garment image’s address in the shop’s page (optional; never fetched): recorded with a refusal of that image for the merchant',
  ),
});

const SCRIPT = Buffer.from(EMBED_SCRIPT);
const SCRIPT_COPIES = {
  br: zlib.brotliCompressSync(SCRIPT, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: zlib.gzipSync(SCRIPT, { level: 9 }),
};

function encodingFor(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = (request.headers['accept-encoding'] ?? '').toLowerCase();
  if (/(^|,)\s*br\s*(,|$)/.test(accepted)) return 'br';
  if (/(^|,)\s*gzip\s*(,|$)/.test(accepted)) return 'gzip';
  return null;
}

/** A shop's page may read the answer of a direct (simple) call: its Origin, never credentials. */
function allowOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
}

export default async function embedRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const deps = () => ({ db: app.db, clock: app.clock });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 8, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  app.get(
    '/embed.js',
    {
      schema: { summary: 'The “Try it on” script for shops (docs/embed.md)', tags: ['embed'] },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        // Loaded by shops' pages on other sites.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('vary', 'Accept-Encoding');
      const encoding = encodingFor(request);
      if (encoding === null) return reply.send(SCRIPT);
      return reply.header('content-encoding', encoding).send(SCRIPT_COPIES[encoding]);
    },
  );

  app.post(
    '/api/embed/session',
    {
      onRequest: app.perRouteLimit('embed-session', config.rateLimits.tryOnPerMinute * 2),
      schema: {
        summary:
          'A shopper’s short-lived embed session for a shop’s publishable key: bound to one of the shop’s allowed origins (the Origin header, or from our frame the page’s origin)',
        tags: ['embed'],
        body: EmbedSessionRequestSchema,
        response: { 200: EmbedSessionResponseSchema, ...ERROR_RESPONSES },
      },
      // Checked against the merchant's own list of origins below (no cookie is read or set).
      config: { anySite: true, invalidInput: { fields: { key: 'EMBED_KEY_INVALID' }, otherwise: 'VALIDATION_ERROR' } },
    },
    async (request, reply) => {
      const session = await openEmbedSession(
        { ...deps(), sessionSecret: app.sessionSecret },
        {
          key: request.body.key,
          requestOrigin: request.headers.origin,
          ownOrigins: ownOrigins(request, config),
          pageOrigin: request.body.origin,
          ip: request.ip,
        },
      );
      allowOrigin(request, reply);
      return {
        success: true as const,
        token: session.token,
        expiresAt: session.expiresAt,
        merchant: { name: session.merchantName },
        estimateSeconds: engineEstimate(app.engines.defaultEngine, false, config).estimateSeconds,
      };
    },
  );

  app.post(
    '/api/embed/tryon',
    {
      onRequest: app.perRouteLimit('tryon', config.rateLimits.tryOnPerMinute),
      schema: {
        summary:
          'A shopper’s try-on in a shop’s widget (Authorization: Bearer <embed token>): paid with one of the merchant’s credits, refunded on failure, within the daily caps',
        description:
          'The daily caps and the credit are checked before the try-on takes a place in line (429 EMBED_LIMIT_REACHED, 402 MERCHANT_NO_CREDITS). While every engine slot is taken it waits in line, uncharged; when it cannot be held, 503 ENGINE_BUSY with Retry-After, the place and a `ticket`: sent back as the form field `lineTicket`, it keeps the place. A shopper who goes away (the connection closes) gives up the place and the merchant pays nothing.',
        tags: ['embed'],
        security: [{ embedToken: [] }],
        consumes: ['multipart/form-data'],
        documented: { body: EmbedTryOnFormSchema },
        response: { 200: EmbedTryOnResponseSchema, ...EMBED_TRYON_ERROR_RESPONSES },
      },
      // The database or Redis away for a moment: 503 SERVICE_UNAVAILABLE, nothing charged.
      config: { outageMessage: MESSAGES.tryOnOutage },
    },
    async (request, reply) => {
      const { session, merchant } = await embedSessionOf(deps(), bearerToken(request));
      const files: Partial<Record<FileField, Upload>> = {};
      const fields: Record<string, string> = {};
      await readMultipart(request, MESSAGES.uploadBothPhotos, async () => {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const field = part.fieldname as FileField;
            if (!FILE_FIELDS.includes(field) || files[field]) {
              part.file.resume();
              throw new AppError('VALIDATION_ERROR', MESSAGES.unexpectedParts);
            }
            files[field] = { data: await part.toBuffer(), declared: { type: part.mimetype, name: part.filename } };
          } else if (
            (part.fieldname === 'category' || part.fieldname === 'garmentUrl' || part.fieldname === 'lineTicket') &&
            typeof part.value === 'string' &&
            part.value !== ''
          ) {
            fields[part.fieldname] = part.value;
          }
        }
      });
      if (!files.userImage) throw new AppError('MISSING_FILE', MESSAGES.missingPersonImage);
      if (!files.clothingImage) throw new AppError('MISSING_FILE', MESSAGES.missingClothingImage);
      const parsed = EmbedTryOnFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const failed = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
        throw new AppError(failed.has('category') ? 'INVALID_CATEGORY' : 'VALIDATION_ERROR');
      }
      const engineId = app.engines.defaultEngine;
      const m = {
        merchantId: merchant.id,
        accountId: merchant.user_id,
        sessionId: session.id,
        shopperHash: session.shopper_hash,
        dailyLimit: merchant.daily_limit,
        shopperDailyLimit: merchant.shopper_daily_limit,
      };
      // A refusal of the shop's own garment photo: counted for the merchant, answered "cannot be previewed here".
      const product = {
        merchantId: m.merchantId,
        garment: garmentImageRef(files.clothingImage.data, fields.garmentUrl),
      };
      const refused = (err: unknown) => asProductPhotoRefusal({ ...deps(), log: request.log }, product, err);
      // The shopper who goes away gives up the place: watched from before the place is taken.
      const gone = watchClientGone(request, reply);
      let admission: Admission | undefined;
      let done;
      try {
        // Cheap refusals first (a daily cap reached, no credit left, the line full): nothing
        // decoded, nothing charged, no place taken. Otherwise a place in line, kept while the
        // photos are decoded.
        admission = await app.tryOns.refuseMerchantEarly(m, engineId, {
          address: request.ip,
          ticket: parsed.data.lineTicket,
        });
        const [person, garment] = await Promise.all([
          validateAndNormalise(files.userImage, 'userImage', MIN_SIDE.person),
          validateAndNormalise(files.clothingImage, 'clothingImage', MIN_SIDE.garment),
        ]);
        files.userImage = undefined;
        files.clothingImage = undefined;
        done = await app.tryOns.performForMerchant({
          ...m,
          category: parsed.data.category,
          engineId,
          person,
          garment,
          resultMinutes: EMBED_RESULT_MINUTES,
          reqId: request.id,
          admission,
          signal: gone.signal,
        });
      } catch (err) {
        throw await refused(err);
      } finally {
        gone.stop();
        await admission?.leave();
      }
      return {
        success: true as const,
        imageUrl: `/api/results/${done.resultName}`,
        tryonId: done.tryonId,
        expiresAt: done.expiresAt,
      };
    },
  );

  app.get(
    '/api/merchant/usage',
    {
      schema: {
        summary:
          'A merchant’s credits, try-ons per UTC day and refused product photos (Authorization: Bearer <secret key>)',
        tags: ['embed'],
        security: [{ merchantSecretKey: [] }],
        querystring: MerchantUsageQuerySchema,
        response: { 200: MerchantUsageResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const merchant = await merchantBySecretKey(deps(), bearerToken(request));
      return { success: true as const, ...(await merchantUsage(deps(), merchant, request.query.days)) };
    },
  );
}
