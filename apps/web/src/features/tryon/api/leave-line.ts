import { MESSAGES, type LeaveLineResponse } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/**
 * POST /api/tryon-line/leave: "Leave the line" while away (waiting to post again after a busy
 * answer): the ticket gives its place up at once. `api`: the engine the try-on was for.
 */
export function leaveLine(input: { ticket: string; api?: string | undefined }): Promise<LeaveLineResponse> {
  return apiRequest(
    '/api/tryon-line/leave',
    loadResponseSchemas().then((s) => s.LeaveLineResponseSchema),
    {
      method: 'POST',
      json: { ticket: input.ticket, ...(input.api ? { api: input.api } : {}) },
      fallbackError: MESSAGES.unknownError,
    },
  );
}
