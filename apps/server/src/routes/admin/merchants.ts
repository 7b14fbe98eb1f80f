/**
 * The operator console's merchants (the "Try it on" widget, docs/embed.md): create, list, a
 * merchant's page with usage per day and shopper sessions, changes, credits through the ledger,
 * key rotation. Operators only (`http/operator.ts`); every change is audited.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCreditsRequestSchema,
  AdminMerchantCreateRequestSchema,
  AdminMerchantCreatedResponseSchema,
  AdminMerchantDetailResponseSchema,
  AdminMerchantListResponseSchema,
  AdminMerchantResponseSchema,
  AdminMerchantRotateRequestSchema,
  AdminMerchantUpdateRequestSchema,
  AdminUserIdParamsSchema,
  MerchantSchema,
  MerchantUsageQuerySchema,
} from '@aidressup/contract';
import { ERROR_RESPONSES } from '../../http/schemas.js';
import { operatorGuard, operatorOf } from '../../http/operator.js';
import {
  adjustMerchantCredits,
  changeMerchant,
  createMerchant,
  listAllMerchants,
  merchantDetail,
  rotateMerchantKeys,
} from '../../services/merchants.js';

const RotatedResponseSchema = z.object({
  success: z.literal(true),
  merchant: MerchantSchema,
  /** The new secret key, shown this once (null when only the publishable key changed). */
  secretKey: z.string().nullable(),
});

export default async function adminMerchantRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('preValidation', operatorGuard(app));
  const deps = () => ({ db: app.db, clock: app.clock });
  const tags = ['admin'];
  const security = [{ session: [] }];
  const params = AdminUserIdParamsSchema;
  const idRoute = { invalidInput: { fields: { id: 'NOT_FOUND' as const }, otherwise: 'VALIDATION_ERROR' as const } };

  app.post(
    '/api/admin/merchants',
    {
      schema: {
        summary: 'Create a merchant: publishable key, secret key (shown once, stored hashed), allowed origins, credits',
        tags,
        security,
        body: AdminMerchantCreateRequestSchema,
        response: { 200: AdminMerchantCreatedResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const merchant = await createMerchant(deps(), operatorOf(request), request.body);
      return { success: true as const, merchant, secretKey: merchant.secretKey };
    },
  );

  app.get(
    '/api/admin/merchants',
    {
      schema: {
        summary: 'Every merchant with its credits and keys’ state',
        tags,
        security,
        response: { 200: AdminMerchantListResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async () => ({ success: true as const, items: await listAllMerchants(deps()) }),
  );

  app.get(
    '/api/admin/merchants/:id',
    {
      schema: {
        summary: 'A merchant with its try-ons per UTC day and its latest shopper sessions',
        tags,
        security,
        params,
        querystring: MerchantUsageQuerySchema,
        response: { 200: AdminMerchantDetailResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      ...(await merchantDetail(deps(), request.params.id, request.query.days)),
    }),
  );

  app.patch(
    '/api/admin/merchants/:id',
    {
      schema: {
        summary: 'Change a merchant’s name, allowed origins or daily caps (with a reason)',
        tags,
        security,
        params,
        body: AdminMerchantUpdateRequestSchema,
        response: { 200: AdminMerchantResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      merchant: await changeMerchant(deps(), operatorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/admin/merchants/:id/credits',
    {
      schema: {
        summary: 'Add credits to a merchant, or (negative) take them back, never below zero: the ledger, with a reason',
        tags,
        security,
        params,
        body: AdminCreditsRequestSchema,
        response: { 200: AdminMerchantResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      merchant: await adjustMerchantCredits(deps(), operatorOf(request), {
        merchantId: request.params.id,
        amount: request.body.amount,
        reason: request.body.reason,
      }),
    }),
  );

  app.post(
    '/api/admin/merchants/:id/keys',
    {
      schema: {
        summary:
          'Rotate a merchant’s keys: the secret key (default; the old one stops at once), the publishable key, or both',
        tags,
        security,
        params,
        body: AdminMerchantRotateRequestSchema.optional(),
        response: { 200: RotatedResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => {
      const body = AdminMerchantRotateRequestSchema.parse(request.body ?? {});
      const merchant = await rotateMerchantKeys(deps(), operatorOf(request), {
        merchantId: request.params.id,
        key: body.key,
        reason: body.reason,
      });
      const { secretKey, ...rest } = merchant;
      return { success: true as const, merchant: rest, secretKey };
    },
  );
}
