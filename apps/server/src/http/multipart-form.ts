/** Reading a multipart upload form the same way on every route that takes photos. */
import type { FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';

/** multipart/form-data with a boundary parameter (busboy throws a plain Error without one). */
const MULTIPART_WITH_BOUNDARY = /^multipart\/form-data\s*;(.*;)?\s*boundary=("[^"]+"|[^;\s]+)/i;

/**
 * Runs `readParts` on a multipart request. A request that is not multipart is MISSING_FILE with
 * `missingMessage`; one without a boundary is MALFORMED_UPLOAD. Our refusals and the parser's
 * limits (FST_*) keep their codes; anything else the parser throws (cut off mid-file, a broken
 * part header) is a malformed upload, not a server fault.
 */
export async function readMultipart<T>(
  request: FastifyRequest,
  missingMessage: string,
  readParts: () => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError('MISSING_FILE', missingMessage);
  if (!MULTIPART_WITH_BOUNDARY.test(request.headers['content-type'] ?? '')) throw new AppError('MALFORMED_UPLOAD');
  try {
    return await readParts();
  } catch (err) {
    const code = (err as { code?: unknown })?.code;
    if (isAppError(err) || (typeof code === 'string' && code.startsWith('FST_'))) throw err;
    throw new AppError('MALFORMED_UPLOAD');
  }
}
