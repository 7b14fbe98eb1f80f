import { MESSAGES, type TryOnResponse } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

export interface RerunTryOnInput {
  tryonId: string;
  /** The hosted engine to run it on. */
  api: string;
  signal?: AbortSignal;
  /** Follows the new try-on's stages (contract progress.ts). */
  progressId?: string;
  /** The ticket of an earlier ENGINE_BUSY answer: keeps the place in line. */
  lineTicket?: string;
}

/** POST /api/tryons/{id}/rerun ("Make it photo-real"): the answer is a try-on's. */
export function rerunTryOn(input: RerunTryOnInput): Promise<TryOnResponse> {
  return apiRequest(
    `/api/tryons/${encodeURIComponent(input.tryonId)}/rerun`,
    loadResponseSchemas().then((s) => s.TryOnResponseSchema),
    {
      method: 'POST',
      json: {
        api: input.api,
        ...(input.progressId ? { progressId: input.progressId } : {}),
        ...(input.lineTicket ? { lineTicket: input.lineTicket } : {}),
      },
      ...(input.signal ? { signal: input.signal } : {}),
      fallbackError: MESSAGES.unknownError,
    },
  );
}
