import { DemoCheckoutResponseSchema, WEB_MESSAGES, type PlanId, type User } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/billing/demo/checkout: completes a demo purchase for the session's user. */
export async function demoCheckout(planId: PlanId): Promise<User> {
  const res = await apiRequest('/api/billing/demo/checkout', DemoCheckoutResponseSchema, {
    method: 'POST',
    json: { planId },
    fallbackError: WEB_MESSAGES.demoCheckoutFailed,
  });
  return res.user;
}
