import { BillingPortalResponseSchema, MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /api/billing/portal: where the customer manages the plan (Paddle's customer portal, or
 * `/billing/demo-portal` with demo billing). 409 PORTAL_UNAVAILABLE when there is nothing to manage.
 */
export async function getBillingPortal(): Promise<string> {
  const res = await apiRequest('/api/billing/portal', BillingPortalResponseSchema, {
    fallbackError: MESSAGES.portalNotConfigured,
  });
  return res.url;
}
