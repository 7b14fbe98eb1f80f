/** A shop of the widget for a test: made by an operator, with its keys and a shopper's embed token. */
import type { FastifyInstance } from 'fastify';
import { AdminMerchantCreatedResponseSchema, EmbedSessionResponseSchema } from '@aidressup/contract';
import { multipart, type FilePart } from './images.js';

/** The shop's page origin the test merchants allow. */
export const TEST_SHOP_ORIGIN = 'https://shop.example';

/** Creates a merchant as the operator of `operatorCookie`, and opens a shopper's embed session on it. */
export async function merchantWithToken(
  app: FastifyInstance,
  operatorCookie: string,
  credits: number,
): Promise<{ id: string; secretKey: string; token: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/merchants',
    headers: { cookie: operatorCookie },
    payload: { name: 'Shop Example', allowedOrigins: [TEST_SHOP_ORIGIN], billing: 'merchant', credits },
  });
  if (created.statusCode !== 200) throw new Error(`merchant not created: ${created.statusCode} ${created.body}`);
  const { merchant, secretKey } = AdminMerchantCreatedResponseSchema.parse(created.json());
  const opened = await app.inject({
    method: 'POST',
    url: '/api/embed/session',
    payload: { key: merchant.publishableKey },
    headers: { origin: TEST_SHOP_ORIGIN },
  });
  if (opened.statusCode !== 200) throw new Error(`embed session not opened: ${opened.statusCode} ${opened.body}`);
  return { id: merchant.id, secretKey, token: EmbedSessionResponseSchema.parse(opened.json()).token };
}

/** POST /api/embed/tryon from the widget's frame with the shopper's embed token. */
export function postEmbedTryOn(
  app: FastifyInstance,
  token: string,
  fields: { userImage: FilePart; clothingImage: FilePart; category?: string; garmentUrl?: string },
) {
  const body = multipart({ category: 'upper_body', ...fields });
  return app.inject({
    method: 'POST',
    url: '/api/embed/tryon',
    headers: { ...body.headers, origin: 'http://localhost', authorization: `Bearer ${token}` },
    payload: body.payload,
  });
}
