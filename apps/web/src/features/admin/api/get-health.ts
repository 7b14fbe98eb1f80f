import { AdminHealthResponseSchema, type AdminHealthResponse } from '@aidressup/contract';
import { ApiError, apiRequest } from '../../../lib/api-client';

/**
 * GET /api/admin/health: database, storage, queue and each engine with its reasons, and how kept
 * photos are sealed. A 503 still carries the checks.
 */
export async function getHealth(signal?: AbortSignal): Promise<AdminHealthResponse> {
  try {
    return await apiRequest('/api/admin/health', AdminHealthResponseSchema, {
      fallbackError: 'The health check could not be read.',
      ...(signal ? { signal } : {}),
    });
  } catch (e) {
    const parsed = e instanceof ApiError ? AdminHealthResponseSchema.safeParse(e.body) : null;
    if (parsed?.success) return parsed.data;
    throw e;
  }
}
