/**
 * HTTP plumbing shared by the hosted engines: one deadline per try-on that aborts every
 * in-flight request, and fetch with retries (429, 5xx, network errors) and backoff that
 * never waits past that deadline. Bodies are read through `upstream.ts`, capped while they stream.
 */
import { EngineError } from '@aidressup/engine';
import { answerLimit, DEFAULT_UPSTREAM_MAX_BYTES, readCapped } from './upstream.js';

export interface RetryPolicy {
  /** Total tries, the first included. */
  attempts: number;
  /** First backoff delay; doubles on every retry, with jitter. */
  baseMs: number;
  /** Largest single backoff delay (a Retry-After header may ask for more, up to the deadline). */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 500, maxMs: 8_000 };

/** What a hosted engine call receives back: the whole body is read before returning. */
export interface HttpResult {
  status: number;
  headers: Headers;
  body: Buffer;
  url: string;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A deadline for one try-on: `signal` aborts when the caller's signal aborts or when
 * `ms` have passed, whichever comes first.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly ms: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt: number;
  private readonly onOuterAbort: () => void;
  private readonly outer: AbortSignal | undefined;
  private cause: 'deadline' | 'caller' | undefined;

  constructor(ms: number, outer?: AbortSignal) {
    this.ms = ms;
    this.outer = outer;
    this.startedAt = performance.now();
    this.signal = this.controller.signal;
    this.onOuterAbort = () => this.abort('caller');
    this.timer = setTimeout(() => this.abort('deadline'), ms);
    this.timer.unref?.();
    if (outer) {
      if (outer.aborted) this.abort('caller');
      else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    }
  }

  private abort(cause: 'deadline' | 'caller'): void {
    if (this.cause) return;
    this.cause = cause;
    this.controller.abort(
      new DOMException(
        cause === 'deadline' ? 'engine deadline passed' : 'aborted by caller',
        cause === 'deadline' ? 'TimeoutError' : 'AbortError',
      ),
    );
  }

  /** Milliseconds left before the deadline. */
  remaining(): number {
    return Math.max(0, this.ms - (performance.now() - this.startedAt));
  }

  elapsed(): number {
    return performance.now() - this.startedAt;
  }

  get abortedBy(): 'deadline' | 'caller' | undefined {
    return this.cause;
  }

  /** The error a try-on ends with once the deadline has fired. */
  timeoutError(provider: string, requestId?: string): EngineError {
    const why = this.cause === 'caller' ? 'aborted by caller' : `engine deadline of ${this.ms} ms passed`;
    return new EngineError(
      'ENGINE_TIMEOUT',
      undefined,
      `${provider}: ${why}${requestId ? ` (request ${requestId})` : ''}`,
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

/** Resolve after `ms`, or reject as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with full jitter in [delay/2, delay]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(raw / 2 + (raw / 2) * random());
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const v = headers.get('retry-after');
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export function isTransientStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

export interface HostedFetchOptions {
  deadline: Deadline;
  fetch: FetchLike;
  retry: RetryPolicy;
  /** Which answers are worth another try (default: 408, 429 and 5xx). */
  shouldRetry?: (res: HttpResult) => boolean;
  /** Called before each retry (for logging). */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; error?: string }) => void;
  /** Largest body read, capped while it streams; larger answers fail (default: an answer with an image inline). */
  maxBytes?: number;
}

/**
 * fetch, reading the whole body, with retries on transient answers and network errors.
 * Aborts with the deadline. Returns the last answer even when it is still an error status
 * (the caller maps it); throws EngineError on a network failure that outlives the retries
 * and ENGINE_TIMEOUT once the deadline fires.
 */
export async function hostedFetch(
  url: string,
  init: RequestInit,
  opts: HostedFetchOptions,
  provider: string,
): Promise<HttpResult> {
  const { deadline, retry } = opts;
  const shouldRetry = opts.shouldRetry ?? ((r: HttpResult) => isTransientStatus(r.status));
  const maxBytes = opts.maxBytes ?? answerLimit(DEFAULT_UPSTREAM_MAX_BYTES);
  for (let attempt = 0; ; attempt++) {
    if (deadline.signal.aborted) throw deadline.timeoutError(provider);
    let result: HttpResult | undefined;
    let networkError: string | undefined;
    // Aborted with the deadline, or by the reader once the body passes its limit (the socket closes).
    const tooLarge = new AbortController();
    try {
      const res = await opts.fetch(url, { ...init, signal: AbortSignal.any([deadline.signal, tooLarge.signal]) });
      const body = await readCapped(res, maxBytes, () => tooLarge.abort(), provider);
      result = { status: res.status, headers: res.headers, body, url };
    } catch (err) {
      if (deadline.signal.aborted) throw deadline.timeoutError(provider);
      if (err instanceof EngineError) throw err;
      // A name that resolves to a private address: refused, never worth another try.
      if (causeCode(err) === 'ENOTPUBLIC')
        throw new EngineError(
          'ENGINE_FAILED',
          undefined,
          `${provider}: refused to connect: ${describeNetworkError(err)}`,
        );
      networkError = describeNetworkError(err);
    }
    const canRetry = attempt + 1 < retry.attempts;
    const transient = result ? shouldRetry(result) : true;
    if (!transient) return result!;
    if (canRetry) {
      const asked = result ? retryAfterMs(result.headers) : undefined;
      const delayMs = asked !== undefined ? Math.min(asked, 60_000) : backoffDelay(attempt, retry);
      // Waiting past the deadline would only turn this answer into a timeout.
      if (delayMs < deadline.remaining() - 50) {
        opts.onRetry?.({ attempt: attempt + 1, delayMs, status: result?.status, error: networkError });
        try {
          await sleep(delayMs, deadline.signal);
        } catch {
          throw deadline.timeoutError(provider);
        }
        continue;
      }
    }
    if (result) return result;
    throw new EngineError('ENGINE_FAILED', undefined, `${provider}: network error: ${networkError}`);
  }
}

function causeCode(err: unknown): string | undefined {
  return (err as { cause?: { code?: string } } | undefined)?.cause?.code;
}

function describeNetworkError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${err.message} (${cause.code})` : err.message;
  }
  return String(err);
}

/** Parse a JSON body; a body that is not JSON fails with ENGINE_FAILED. */
export function parseJson<T = unknown>(res: HttpResult, provider: string, what: string): T {
  try {
    return JSON.parse(res.body.toString('utf8')) as T;
  } catch {
    throw new EngineError(
      'ENGINE_FAILED',
      undefined,
      `${provider}: ${what} answered HTTP ${res.status} with a body that is not JSON: ${snippet(res.body)}`,
    );
  }
}

/** First characters of a body, for log details. */
export function snippet(body: Buffer | string, max = 300): string {
  const s = typeof body === 'string' ? body : body.toString('utf8');
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Replace every occurrence of a secret in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return out;
}
