import { AdminStatsResponseSchema, type AdminStatsResponse } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/stats?days=N: the daily series of the last N UTC days and today's totals. */
export async function getStats(days: number, signal?: AbortSignal): Promise<AdminStatsResponse> {
  return apiRequest(`/api/admin/stats?days=${days}`, AdminStatsResponseSchema, {
    fallbackError: 'The statistics could not be loaded.',
    ...(signal ? { signal } : {}),
  });
}
