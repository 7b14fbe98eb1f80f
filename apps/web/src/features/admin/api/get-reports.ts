import { AdminReportListResponseSchema, type AdminReport, type ReportStatus } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/reports?status=: reports in one state (pending: the queue, oldest first). */
export async function getReports(status: ReportStatus, signal?: AbortSignal): Promise<AdminReport[]> {
  const res = await apiRequest(`/api/admin/reports?status=${status}&limit=200`, AdminReportListResponseSchema, {
    fallbackError: 'The reports could not be loaded.',
    ...(signal ? { signal } : {}),
  });
  return res.items;
}
