/**
 * Cancelling a subscription at once: `POST /subscriptions/{subscription_id}/cancel` (Paddle
 * Billing API) with `{"effective_from": "immediately"}`. Paddle answers 200 with the subscription,
 * its status `canceled`, and bills it no more; a `subscription.canceled` notification follows.
 * Used when a person deletes their data. The API key stays on the server.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '@aidressup/contract';
import { AppError } from '../../errors.js';

const CancelResponseSchema = z.object({
  data: z.object({
    id: z.string(),
    status: z.string(),
    canceled_at: z.string().nullable().optional(),
    updated_at: z.string().optional(),
  }),
});

/**
 * Paddle's documented refusals for a subscription that is canceled already (a second request, or
 * one racing the first): the goal is reached, so they count as success.
 */
const ALREADY_CANCELED = new Set(['subscription_update_when_canceled', 'subscription_is_canceled_action_invalid']);

const TIMEOUT_MS = 10_000;

export interface CanceledSubscription {
  /** When Paddle canceled it (Paddle's clock, as its notifications' `occurred_at`); null when it was canceled before. */
  canceledAt: string | null;
}

/**
 * Cancels the subscription now. Throws SERVICE_UNAVAILABLE (with `MESSAGES.planNotCanceled`) when
 * Paddle does not answer, refuses, or answers with a subscription that is not canceled.
 */
export async function cancelSubscriptionNow(input: {
  apiBaseUrl: string;
  apiKey: string;
  subscriptionId: string;
  log: FastifyBaseLogger;
}): Promise<CanceledSubscription> {
  const url = `${input.apiBaseUrl}/subscriptions/${encodeURIComponent(input.subscriptionId)}/cancel`;
  const log = input.log.child({ subscriptionId: input.subscriptionId });
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ effective_from: 'immediately' }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    log.error({ err }, 'Paddle subscription cancel: no answer');
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.planNotCanceled);
  }
  const body: unknown = await res.json().catch(() => null);
  const error = (body as { error?: { code?: string; detail?: string } } | null)?.error;
  if (res.status === 400 && error?.code && ALREADY_CANCELED.has(error.code)) {
    log.info({ code: error.code }, 'Paddle subscription cancel: canceled already');
    return { canceledAt: null };
  }
  const parsed = CancelResponseSchema.safeParse(body);
  if (!res.ok || !parsed.success || parsed.data.data.status !== 'canceled') {
    log.error(
      {
        status: res.status,
        code: error?.code,
        detail: error?.detail,
        subscriptionStatus: parsed.success ? parsed.data.data.status : undefined,
      },
      'Paddle subscription cancel: refused',
    );
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.planNotCanceled);
  }
  const sub = parsed.data.data;
  return { canceledAt: sub.canceled_at ?? sub.updated_at ?? null };
}
