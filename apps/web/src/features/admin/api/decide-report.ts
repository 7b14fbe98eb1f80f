import {
  AdminReportDecisionResponseSchema,
  type AdminReport,
  type AdminReportDecisionRequest,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/reports/:id: refunds or rejects a pending report, once (409 REPORT_DECIDED after). */
export async function decideReport(id: string, request: AdminReportDecisionRequest): Promise<AdminReport> {
  const res = await apiRequest(`/api/admin/reports/${encodeURIComponent(id)}`, AdminReportDecisionResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The decision could not be saved.',
  });
  return res.report;
}
