/** TRUST_PROXY: a client's own X-Forwarded-For never moves it out of its per-IP limits. */
import { describe, expect, it } from 'vitest';
import { testApps, type TestApp } from '../test/app.js';

const build = testApps('sqlite');

function make(trustProxy: string): Promise<TestApp> {
  return build({ env: { TRUST_PROXY: trustProxy, RATE_LIMIT_GLOBAL_PER_MINUTE: '3' } });
}

/** Statuses of `n` requests from `remoteAddress`, each with a different forged first X-Forwarded-For entry. */
async function statuses(
  t: TestApp,
  remoteAddress: string,
  forwardedFor: (i: number) => string,
  n = 5,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/config',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor(i) },
    });
    out.push(res.statusCode);
  }
  return out;
}

describe('trusted proxies', () => {
  it('with one trusted hop, the address the load balancer saw counts, not what the client wrote before it', async () => {
    const t = await make('1');
    // The balancer appends the real client (198.51.100.7); the client forged the entries before it.
    expect(await statuses(t, '10.0.0.2', (i) => `203.0.113.${i}, 198.51.100.7`)).toEqual([200, 200, 200, 429, 429]);
    // Another real client behind the same balancer has its own budget.
    expect(await statuses(t, '10.0.0.2', () => '198.51.100.8', 1)).toEqual([200]);
  });

  it('with a list of proxies, only those are trusted: a forged header sent straight to the server is ignored', async () => {
    const t = await make('10.0.0.0/8');
    expect(await statuses(t, '198.51.100.9', (i) => `203.0.113.${i}`)).toEqual([200, 200, 200, 429, 429]);
    // Through the trusted proxy, the client address is the one the proxy appended.
    expect(await statuses(t, '10.1.2.3', (i) => `203.0.113.${i}, 198.51.100.10`)).toEqual([200, 200, 200, 429, 429]);
  });

  it('off by default: X-Forwarded-For is ignored', async () => {
    const t = await make('');
    expect(await statuses(t, '198.51.100.11', (i) => `203.0.113.${i}`)).toEqual([200, 200, 200, 429, 429]);
  });
});
