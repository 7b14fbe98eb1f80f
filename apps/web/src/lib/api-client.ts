import type { z } from 'zod';

/** An API error: the server's human message and code when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;
  constructor(message: string, status: number, code: string | undefined, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** The API lives on the same origin as the page (the server serves this build). */
const API_BASE = '';

export function apiUrl(path: string): string {
  return `${API_BASE}${path}`;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFields(body: unknown): { error: string | undefined; code: string | undefined } {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    return {
      error: typeof b.error === 'string' && b.error.trim() ? b.error : undefined,
      code: typeof b.code === 'string' ? b.code : undefined,
    };
  }
  return { error: undefined, code: undefined };
}

type ResponseSchemas = typeof import('./response-schemas');
let responseSchemas: ResponseSchemas | undefined;

/** The schemas of response-schemas.ts, loaded once (boot.tsx starts this before the first render). */
export function loadResponseSchemas(): Promise<ResponseSchemas> {
  return import('./response-schemas').then((schemas) => (responseSchemas = schemas));
}

/** The schemas of response-schemas.ts if they have loaded already, for code that cannot wait. */
export function loadedResponseSchemas(): ResponseSchemas | undefined {
  return responseSchemas;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  json?: unknown;
  body?: BodyInit;
  signal?: AbortSignal;
  /** Message used when the server gives none. */
  fallbackError: string;
}

/**
 * Calls the API with plain fetch and parses a successful answer with `schema`.
 * Failures throw ApiError carrying the server's message when present.
 * `schema` may still be loading (`loadResponseSchemas()`): the request does not wait for it.
 */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S | PromiseLike<S>,
  opts: RequestOptions,
): Promise<z.infer<S>> {
  const schemaReady = Promise.resolve(schema);
  // A schema that fails to load is reported where it is awaited, or not at all when the request fails first.
  schemaReady.catch(() => undefined);
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(apiUrl(path), {
    method: opts.method ?? 'GET',
    headers,
    body: body ?? null,
    credentials: 'include',
    signal: opts.signal ?? null,
  });
  const data = await readJson(res);
  const { error, code } = errorFields(data);
  if (!res.ok || (data && typeof data === 'object' && (data as { success?: unknown }).success === false)) {
    throw new ApiError(error ?? opts.fallbackError, res.status, code, data);
  }
  const parsed = (await schemaReady).safeParse(data);
  if (!parsed.success) {
    throw new ApiError(opts.fallbackError, res.status, 'INVALID_RESPONSE', data);
  }
  return parsed.data;
}
