import {
  ReportTryOnResponseSchema,
  WEB_MESSAGES,
  type ReportTryOnRequest,
  type ReportTryOnResponse,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/tryons/:id/report: the shopper reports a bad result (refunded at once, or left for an operator). */
export async function reportTryOn(id: string, request: ReportTryOnRequest): Promise<ReportTryOnResponse> {
  return apiRequest(`/api/tryons/${encodeURIComponent(id)}/report`, ReportTryOnResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: WEB_MESSAGES.reportFailed,
  });
}
