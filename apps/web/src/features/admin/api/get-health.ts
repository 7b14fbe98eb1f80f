import { HealthResponseSchema, type HealthResponse } from '@aidressup/contract';
import { ApiError, apiRequest } from '../../../lib/api-client';

/** GET /api/health: database, storage, queue and each engine. A 503 still carries the checks. */
export async function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  try {
    return await apiRequest('/api/health', HealthResponseSchema, {
      fallbackError: 'The health check could not be read.',
      ...(signal ? { signal } : {}),
    });
  } catch (e) {
    const parsed = e instanceof ApiError ? HealthResponseSchema.safeParse(e.body) : null;
    if (parsed?.success) return parsed.data;
    throw e;
  }
}
