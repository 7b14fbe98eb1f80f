import { BillingHistoryResponseSchema, MESSAGES, type Purchase } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/billing/history: the session user's purchases, newest first. */
export async function getBillingHistory(signal?: AbortSignal): Promise<Purchase[]> {
  const res = await apiRequest('/api/billing/history', BillingHistoryResponseSchema, {
    fallbackError: MESSAGES.internalError,
    ...(signal ? { signal } : {}),
  });
  return [...res.items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
