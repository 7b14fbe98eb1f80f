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
    // The answer's body, read: from then on only the schema keeps the request from settling.
    const read = deferred<void>();
    const fetch = vi.fn(async () => {
      const res = Response.json({ success: true, n: 7, extra: 'dropped' });
      const text = res.text.bind(res);
      res.text = () => text().finally(() => read.resolve());
      return res;
    });
    vi.stubGlobal('fetch', fetch);
    const schema = deferred<typeof Answer>();
    let settled = false;
    const answer = apiRequest('/api/x', schema.promise, { fallbackError: 'Failed' }).finally(() => (settled = true));
    await read.promise;
    // Everything already on its way has run (a task after the body's read).
    await new Promise((r) => setTimeout(r, 0));
    expect(fetch).toHaveBeenCalledTimes(1);
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
