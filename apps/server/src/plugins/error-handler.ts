/**
 * One error handler: every error becomes `{success:false, code, error}` with the status of the
 * contract's table. 5xx details are logged, never sent. Unknown /api routes get a JSON 404.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_STATUS, type ErrorCode } from '@aidressup/contract';
import { isEngineError } from '@aidressup/engine';
import { AppError, defaultMessage, isAppError } from '../errors.js';

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_FILES_LIMIT: 'VALIDATION_ERROR',
  FST_PARTS_LIMIT: 'VALIDATION_ERROR',
  FST_FIELDS_LIMIT: 'VALIDATION_ERROR',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'VALIDATION_ERROR',
  FST_ERR_CTP_BODY_TOO_LARGE: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
};

export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (isEngineError(err)) return new AppError(err.code, err.message);
  const e = err as Partial<FastifyError> & { statusCode?: number };
  if (e.code && FASTIFY_CODES[e.code]) return new AppError(FASTIFY_CODES[e.code]!);
  if (e.validation) return new AppError('VALIDATION_ERROR');
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 429) return new AppError('RATE_LIMITED');
  if (status === 404) return new AppError('NOT_FOUND');
  if (status === 401) return new AppError('UNAUTHORIZED');
  if (status === 403) return new AppError('FORBIDDEN');
  if (status === 413) return new AppError('FILE_TOO_LARGE');
  if (status >= 400 && status < 500) return new AppError('VALIDATION_ERROR');
  if (status === 503) return new AppError('SERVICE_UNAVAILABLE');
  return new AppError('INTERNAL_ERROR');
}

export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((err, request, reply) => {
      const appErr = toAppError(err);
      const status = ERROR_STATUS[appErr.code];
      if (status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: appErr.code, reason: (err as Error).message }, 'request refused');
      const message = status >= 500 && appErr.code === 'INTERNAL_ERROR' ? defaultMessage('INTERNAL_ERROR') : appErr.message;
      if (appErr.code === 'RATE_LIMITED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
      return reply.status(status).send({ success: false, code: appErr.code, error: message, ...appErr.extra });
    });
  },
  { name: 'error-handler' },
);
