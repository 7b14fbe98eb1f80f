/**
 * One error handler: every error becomes `{success:false, code, error}` with the status of the
 * contract's table. 5xx details are logged, never sent. Unknown /api routes get a JSON 404.
 *
 * A refusal that comes before the request body was read to the end (too many files, a wrong
 * field, no credits) leaves the rest of the body on the connection: it is read and dropped
 * (up to DRAIN_LIMIT_BYTES) so the next request on a kept-alive connection works, and past
 * that the connection is closed after the answer.
 *
 * A request that fails a route's schema (body, params, querystring) is answered with the code its
 * route names for the failing field (`config.invalidInput`), else VALIDATION_ERROR; the schema's
 * own wording (zod issues) is logged at info level, never sent.
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_STATUS, MESSAGES, type ErrorCode } from '@aidressup/contract';
import { isEngineError } from '@aidressup/engine';
import { AppError, defaultMessage, isAppError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/outage.js';
import { isRedisUnreachable } from '../redis/client.js';

/** Retry-After (seconds) of an ENGINE_BUSY that does not say its own (the line's answers do, `tryon/line/admission.ts`). */
const ENGINE_BUSY_RETRY_AFTER_S = 15;
/** Retry-After (seconds) of a SERVICE_UNAVAILABLE: the database or Redis away for a moment (restarting). */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_S = 5;

/** The codes answered with Retry-After: the error's own `retryAfterSeconds`, else this (seconds). */
const RETRY_AFTER_S: Partial<Record<ErrorCode, number>> = {
  ENGINE_BUSY: ENGINE_BUSY_RETRY_AFTER_S,
  TOO_MANY_REQUESTS: ENGINE_BUSY_RETRY_AFTER_S,
  SERVICE_UNAVAILABLE: SERVICE_UNAVAILABLE_RETRY_AFTER_S,
};

/** Parser limits answered with a message that says what was wrong. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_FILES_LIMIT: MESSAGES.unexpectedParts,
  FST_PARTS_LIMIT: MESSAGES.unexpectedParts,
  FST_FIELDS_LIMIT: MESSAGES.unexpectedParts,
};

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_FILES_LIMIT: 'VALIDATION_ERROR',
  FST_PARTS_LIMIT: 'VALIDATION_ERROR',
  FST_FIELDS_LIMIT: 'VALIDATION_ERROR',
  FST_PROTO_VIOLATION: 'MALFORMED_UPLOAD',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'VALIDATION_ERROR',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
};

/**
 * How a route answers input that fails its schema: the code for a failure in each named field
 * (the first segment of the issue's path; '' for the input as a whole, e.g. a body that is not an
 * object), tried in the order given, else `otherwise`.
 */
export interface InvalidInput {
  fields?: Readonly<Record<string, ErrorCode>>;
  otherwise?: ErrorCode;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The error codes for input that fails this route's schema; default VALIDATION_ERROR. */
    invalidInput?: InvalidInput;
    /**
     * What this route says when the database, Redis or storage is away for a moment
     * (SERVICE_UNAVAILABLE without a message of its own); default `MESSAGES.outage`.
     */
    outageMessage?: string;
  }
}

type Issue = { path: readonly PropertyKey[]; errors?: readonly (readonly Issue[])[] };

/** The first path segment of every issue, including those inside each option of a union. */
function failedFields(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): Set<string> {
  const fields = new Set<string>();
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.errors && issue.errors.length > 0) {
      for (const option of issue.errors) for (const f of failedFields(option, path)) fields.add(f);
    } else {
      fields.add(path.length === 0 ? '' : String(path[0]));
    }
  }
  return fields;
}

/** The issues of a schema failure: zod's (kept in `params` by the type provider) as paths. */
function issuesOf(validation: readonly FastifySchemaValidationError[]): Issue[] {
  return validation.map((v) => {
    const params = (v.params ?? {}) as { errors?: Issue[][] };
    const path = v.instancePath.split('/').filter((segment) => segment !== '');
    return { path, ...(Array.isArray(params.errors) ? { errors: params.errors } : {}) };
  });
}

/** The code for a schema failure under the route's `invalidInput` rule. */
export function invalidInputCode(
  validation: readonly FastifySchemaValidationError[],
  rule: InvalidInput | undefined,
): ErrorCode {
  const failed = failedFields(issuesOf(validation));
  for (const [field, code] of Object.entries(rule?.fields ?? {})) if (failed.has(field)) return code;
  return rule?.otherwise ?? 'VALIDATION_ERROR';
}

export function toAppError(err: unknown, request?: FastifyRequest): AppError {
  const outage = request?.routeOptions.config.outageMessage ?? MESSAGES.outage;
  if (isAppError(err)) {
    // A service away for a moment, said without words of its own: the route's.
    if (err.code === 'SERVICE_UNAVAILABLE' && err.message === defaultMessage('SERVICE_UNAVAILABLE'))
      return new AppError('SERVICE_UNAVAILABLE', outage, err.extra);
    return err;
  }
  if (isEngineError(err)) return new AppError(err.code, err.message);
  // PostgreSQL restarting, Redis away: try again in a moment (nothing was charged: a charge that
  // was made is settled by the code that made it).
  if (isDatabaseUnreachable(err) || isRedisUnreachable(err)) return new AppError('SERVICE_UNAVAILABLE', outage);
  const e = err as Partial<FastifyError> & { statusCode?: number };
  if (e.code && FASTIFY_CODES[e.code]) return new AppError(FASTIFY_CODES[e.code]!, FASTIFY_MESSAGES[e.code]);
  if (e.validation) return new AppError(invalidInputCode(e.validation, request?.routeOptions.config.invalidInput));
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

/** A refused request's unread body is read and dropped up to this size; past it the connection closes. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

/** Leaves the connection usable (or closes it cleanly) after answering before the body was read. */
function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const req = request.raw;
  if (req.complete || req.readableEnded || req.destroyed) return;
  const length = Number(req.headers['content-length']);
  if (!Number.isFinite(length) || length > DRAIN_LIMIT_BYTES) reply.header('connection', 'close');
  // Whatever was reading the body (the multipart parser) has given up: read the rest and drop it.
  req.unpipe();
  let read = 0;
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((err, request, reply) => {
      const appErr = toAppError(err, request);
      const status = ERROR_STATUS[appErr.code];
      settleUnreadBody(request, reply);
      if (status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: appErr.code, reason: (err as Error).message }, 'request refused');
      const message =
        status >= 500 && appErr.code === 'INTERNAL_ERROR' ? defaultMessage('INTERNAL_ERROR') : appErr.message;
      if (appErr.code === 'RATE_LIMITED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
      const retryAfter = RETRY_AFTER_S[appErr.code];
      if (retryAfter !== undefined && !reply.hasHeader('retry-after')) {
        // The line's own answer when it gave one (the shopper's place decides it), else the default.
        const asked = appErr.extra?.retryAfterSeconds;
        reply.header('retry-after', String(typeof asked === 'number' ? asked : retryAfter));
      }
      return reply.status(status).send({ success: false, code: appErr.code, error: message, ...appErr.extra });
    });
  },
  { name: 'error-handler' },
);
