/**
 * Paddle's customer portal: `POST /customers/{customer_id}/portal-sessions` (Paddle Billing API)
 * returns authenticated links to the portal, where a customer updates the payment method, sees
 * invoices and cancels. The API key stays on the server.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '@aidressup/contract';
import { AppError } from '../../errors.js';

const PortalSessionResponseSchema = z.object({
  data: z.object({
    urls: z.object({
      general: z.object({ overview: z.string().url() }),
      subscriptions: z
        .array(
          z.object({
            id: z.string(),
            cancel_subscription: z.string().url(),
            update_subscription_payment_method: z.string().url(),
          }),
        )
        .optional(),
    }),
  }),
});

const TIMEOUT_MS = 10_000;

export async function openCustomerPortal(input: {
  apiBaseUrl: string;
  apiKey: string;
  customerId: string;
  subscriptionId: string | null;
  log: FastifyBaseLogger;
}): Promise<string> {
  const url = `${input.apiBaseUrl}/customers/${encodeURIComponent(input.customerId)}/portal-sessions`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(input.subscriptionId ? { subscription_ids: [input.subscriptionId] } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    input.log.error({ err }, 'Paddle customer portal: no answer');
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.portalNotConfigured);
  }
  const body: unknown = await res.json().catch(() => null);
  const parsed = PortalSessionResponseSchema.safeParse(body);
  if (!res.ok || !parsed.success) {
    const error = (body as { error?: { code?: string; detail?: string } } | null)?.error;
    input.log.error(
      { status: res.status, code: error?.code, detail: error?.detail },
      'Paddle customer portal: refused',
    );
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.portalNotConfigured);
  }
  return parsed.data.data.urls.general.overview;
}
