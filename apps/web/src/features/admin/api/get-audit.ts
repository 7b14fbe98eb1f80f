import { AdminAuditResponseSchema, type AdminAuditResponse } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/audit?limit=&before=: the audit log, newest first, a page at a time. */
export async function getAudit(before: string | null, signal?: AbortSignal): Promise<AdminAuditResponse> {
  const query = new URLSearchParams({ limit: '100' });
  if (before) query.set('before', before);
  return apiRequest(`/api/admin/audit?${query.toString()}`, AdminAuditResponseSchema, {
    fallbackError: 'The audit log could not be loaded.',
    ...(signal ? { signal } : {}),
  });
}
