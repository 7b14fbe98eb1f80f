import { DemoCancelResponseSchema, MESSAGES, type User } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/billing/demo/cancel: cancels the demo plan (demo billing only). */
export async function cancelDemoPlan(): Promise<User> {
  const res = await apiRequest('/api/billing/demo/cancel', DemoCancelResponseSchema, {
    method: 'POST',
    fallbackError: MESSAGES.internalError,
  });
  return res.user;
}
