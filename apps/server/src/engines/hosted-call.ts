/**
 * The frame every hosted try-on runs in: one deadline, retrying fetch, polling, logging
 * with the provider's request id, health bookkeeping, and errors that never carry the key.
 */
import { ENGINE_DEADLINE_MS } from '@aidressup/contract';
import { EngineError, isEngineError } from '@aidressup/engine';
import { createLogger } from '../logging.js';
import type { Config } from '../config.js';
import { HealthStats, type CallOutcome, type HostedEngineHealth } from './hosted-health.js';
import {
  DEFAULT_RETRY,
  Deadline,
  hostedFetch,
  redact,
  sleep,
  type FetchLike,
  type HostedFetchOptions,
  type HttpResult,
  type RetryPolicy,
} from './hosted-http.js';
import { answerLimit, DEFAULT_UPSTREAM_MAX_BYTES } from './upstream.js';

/** The subset of a pino/Fastify logger the engines use. */
export interface HostedLogger {
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
}

/** Optional dependencies of every hosted engine factory (tests and the bench set them). */
export interface HostedEngineDeps {
  fetch?: FetchLike;
  logger?: HostedLogger;
  /** Clock for health timestamps. */
  now?: () => number;
  /** The engine's own deadline for one try-on (default ENGINE_DEADLINE_MS, never above 115 s). */
  deadlineMs?: number;
  retry?: Partial<RetryPolicy>;
  /** First wait between status polls (queue-based providers). */
  pollIntervalMs?: number;
  /** Longest wait between status polls. */
  maxPollIntervalMs?: number;
  /** How often the provider's model list or balance is read again after start (default hourly). */
  refreshIntervalMs?: number;
  /** Largest image read from the provider (UPSTREAM_MAX_BYTES; default the upload limit). */
  maxBytes?: number;
  /** Origins trusted like the engine's own for result files (UPSTREAM_OUTPUT_ORIGINS; tests' CDN stand-ins). */
  outputOrigins?: readonly string[];
  /**
   * Raise the 115 s ceiling for an engine whose model is documented to take longer (FASHN's
   * tryon-max); the page's own limit must then allow for it.
   */
  maxDeadlineMs?: number;
}

/** Hard ceiling: the client gives up at 120 s. */
export const MAX_HOSTED_DEADLINE_MS = 115_000;

const silentLogger: HostedLogger = { info: () => undefined, warn: () => undefined };

export interface HostedCall {
  readonly deadline: Deadline;
  /** Largest image read from the provider; an answer may carry one inline (`answerLimit`). */
  readonly maxBytes: number;
  /** Origins trusted like the engine's own for result files besides its own (`readOutputImage`). */
  readonly outputOrigins: readonly string[];
  /** The provider's id for this try-on, once known (logged, and added to error details). */
  requestId: string | undefined;
  fetch(
    url: string,
    init: RequestInit,
    opts?: Partial<Pick<HostedFetchOptions, 'retry' | 'shouldRetry' | 'maxBytes' | 'fetch'>>,
  ): Promise<HttpResult>;
  /** Call `step` until it returns a value, waiting between calls (the wait grows ×1.5). */
  poll<T>(step: () => Promise<T | undefined>): Promise<T>;
  log(obj: Record<string, unknown>, msg: string): void;
  /** A line the operator must act on (a retired model, a wrong setting). */
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface HostedRunner {
  readonly health: HealthStats;
  /** This engine's deadline for one try-on. */
  readonly deadlineMs: number;
  run<T>(signal: AbortSignal | undefined, body: (call: HostedCall) => Promise<T>): Promise<T>;
  healthSnapshot(): HostedEngineHealth;
  /**
   * A request outside any try-on (a model list, a balance): its own deadline, the same retries,
   * not counted in health. Resolves with the answer, or rejects on a network error or timeout.
   */
  fetchOutside(url: string, init: RequestInit, timeoutMs?: number): Promise<HttpResult>;
  /**
   * Best effort: asks the provider to stop a request this side no longer waits for (so it is not
   * run, and billed, for nothing). Never waits or throws: the answer is logged, a failure ignored.
   */
  cancel(url: string, init: RequestInit, requestId?: string): void;
  /** The engine's logger, with the engine id added and secrets scrubbed from the message. */
  log(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

const REFUSALS = new Set([
  'CONTENT_BLOCKED',
  'PERSON_NOT_FOUND',
  'MULTIPLE_PEOPLE',
  'PERSON_TOO_SMALL',
  'GARMENT_NOT_SEPARABLE',
]);

export function createHostedRunner(
  engineId: string,
  secrets: readonly string[],
  deps: HostedEngineDeps = {},
): HostedRunner {
  const fetchImpl: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));
  const logger = deps.logger ?? silentLogger;
  const health = new HealthStats(deps.now ?? Date.now);
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...deps.retry };
  const deadlineMs = Math.min(deps.deadlineMs ?? ENGINE_DEADLINE_MS, deps.maxDeadlineMs ?? MAX_HOSTED_DEADLINE_MS);
  const pollFirst = deps.pollIntervalMs ?? 1_000;
  const pollMax = deps.maxPollIntervalMs ?? 3_000;
  const clean = (s: string) => redact(s, secrets);
  const maxBytes = deps.maxBytes ?? DEFAULT_UPSTREAM_MAX_BYTES;

  async function run<T>(signal: AbortSignal | undefined, body: (call: HostedCall) => Promise<T>): Promise<T> {
    const deadline = new Deadline(deadlineMs, signal);
    const call: HostedCall = {
      deadline,
      maxBytes,
      outputOrigins: deps.outputOrigins ?? [],
      requestId: undefined,
      fetch: (url, init, opts) =>
        hostedFetch(
          url,
          init,
          {
            deadline,
            fetch: opts?.fetch ?? fetchImpl,
            retry: opts?.retry ?? retry,
            shouldRetry: opts?.shouldRetry,
            maxBytes: opts?.maxBytes ?? answerLimit(maxBytes),
            onRetry: (info) =>
              logger.warn(
                {
                  engine: engineId,
                  requestId: call.requestId,
                  url: clean(safeUrl(url)),
                  ...info,
                  error: info.error && clean(info.error),
                },
                'hosted engine: retrying',
              ),
          },
          engineId,
        ),
      poll: async <U>(step: () => Promise<U | undefined>): Promise<U> => {
        let wait = pollFirst;
        for (;;) {
          const value = await step();
          if (value !== undefined) return value;
          try {
            await sleep(Math.min(wait, Math.max(0, deadline.remaining())), deadline.signal);
          } catch {
            throw deadline.timeoutError(engineId, call.requestId);
          }
          wait = Math.min(pollMax, Math.round(wait * 1.5));
        }
      },
      log: (obj, msg) => logger.info({ engine: engineId, requestId: call.requestId, ...obj }, msg),
      warn: (obj, msg) => logger.warn({ engine: engineId, requestId: call.requestId, ...obj }, clean(msg)),
    };
    try {
      const out = await body(call);
      health.record('success');
      logger.info(
        { engine: engineId, requestId: call.requestId, ms: Math.round(deadline.elapsed()) },
        'hosted try-on succeeded',
      );
      return out;
    } catch (err) {
      let e: EngineError;
      if (isEngineError(err)) e = err;
      else if (deadline.signal.aborted) e = deadline.timeoutError(engineId);
      else
        e = new EngineError(
          'ENGINE_FAILED',
          undefined,
          `${engineId}: ${err instanceof Error ? err.message : String(err)}`,
        );
      const idNote = call.requestId && !(e.detail ?? '').includes(call.requestId) ? ` (request ${call.requestId})` : '';
      const safe = new EngineError(e.code, clean(e.message), clean(`${e.detail ?? engineId}${idNote}`));
      const outcome: CallOutcome = REFUSALS.has(safe.code) ? 'refused' : 'failure';
      health.record(outcome);
      logger.warn(
        {
          engine: engineId,
          requestId: call.requestId,
          code: safe.code,
          detail: safe.detail,
          ms: Math.round(deadline.elapsed()),
        },
        'hosted try-on failed',
      );
      throw safe;
    } finally {
      deadline.dispose();
    }
  }

  async function fetchOutside(url: string, init: RequestInit, timeoutMs = 15_000): Promise<HttpResult> {
    const deadline = new Deadline(timeoutMs);
    try {
      return await hostedFetch(
        url,
        init,
        { deadline, fetch: fetchImpl, retry, maxBytes: answerLimit(maxBytes) },
        engineId,
      );
    } finally {
      deadline.dispose();
    }
  }

  function cancel(url: string, init: RequestInit, requestId?: string): void {
    fetchImpl(url, { ...init, signal: AbortSignal.timeout(5_000) })
      .then((r) => logger.info({ engine: engineId, requestId, status: r.status }, `${engineId}: cancel requested`))
      .catch(() => undefined);
  }

  return {
    health,
    deadlineMs,
    run,
    healthSnapshot: () => health.snapshot(),
    fetchOutside,
    cancel,
    log: (obj, msg) => logger.info({ engine: engineId, ...obj }, clean(msg)),
    warn: (obj, msg) => logger.warn({ engine: engineId, ...obj }, clean(msg)),
  };
}

/**
 * A URL a provider's answer names, used only when it is on `origin` (the provider's own API): the
 * key goes with requests there. Anything else (another origin, not a URL) is false.
 */
export function onOrigin(url: string | undefined, origin: string): url is string {
  if (!url) return false;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** A URL without its query string (signed CDN links carry tokens there). */
function safeUrl(url: string): string {
  if (url.startsWith('data:')) return 'data:…';
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

export { safeUrl };

/**
 * A pino logger with the server's shared options, writing lines to `write` (default stdout): for
 * engines created without the process's logger. Honours the level (LOG_LEVEL).
 */
export function createJsonLogger(level: Config['logLevel'], write?: (line: string) => void): HostedLogger {
  return createLogger({ logLevel: level }, write ? { stream: { write } } : {});
}
