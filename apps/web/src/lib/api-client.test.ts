import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiRequest, loadedResponseSchemas, loadResponseSchemas } from './api-client';

afterEach(() => vi.unstubAllGlobals());

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const Answer = z.object({ success: z.literal(true), n: z.number() });

describe('apiRequest with a schema that is still loading', () => {
  it('sends the request at once and reads the answer with the schema once it is there', async () => {
    const fetch = vi.fn(async () => Response.json({ success: true, n: 7, extra: 'dropped' }));
    vi.stubGlobal('fetch', fetch);
    const schema = deferred<typeof Answer>();
    let settled = false;
    const answer = apiRequest('/api/x', schema.promise, { fallbackError: 'Failed' }).finally(() => (settled = true));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    schema.resolve(Answer);
    await expect(answer).resolves.toEqual({ success: true, n: 7 });
  });

  it('reports a refused request without waiting for the schema', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ success: false, error: 'No.', code: 'NOPE' }, { status: 400 }));
    const never = new Promise<typeof Answer>(() => undefined);
    const error = await apiRequest('/api/x', never, { fallbackError: 'Failed' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('NOPE');
  });

  it('checks the answer against the loaded schema', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ success: true, n: 'seven' }));
    const error = await apiRequest('/api/x', Promise.resolve(Answer), { fallbackError: 'Failed' }).catch(
      (e: unknown) => e,
    );
    expect((error as ApiError).code).toBe('INVALID_RESPONSE');
  });
});

describe('the response schemas', () => {
  it('are there for synchronous readers once loaded', async () => {
    const schemas = await loadResponseSchemas();
    expect(loadedResponseSchemas()).toBe(schemas);
    expect(schemas.UserSchema.safeParse({}).success).toBe(false);
  });
});
