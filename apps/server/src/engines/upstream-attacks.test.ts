/**
 * What an upstream names cannot exhaust or steer the server, through the whole product (a Cog
 * server's stand-in enabled by COG_URL, POST /api/process-image). Every server here is on the
 * loopback range; no test traffic leaves the machine.
 * - A result file answered without Content-Length and endless: read only up to the limit, the
 *   connection closed, the API's memory barely moves; the try-on fails and is refunded.
 * - A result URL on another port of this machine, in every spelling (127.0.0.1, localhost,
 *   [::1], [::ffff:127.0.0.1], decimal and hex), over http or https, directly or by a redirect
 *   from the engine's own origin: refused before any connection (the target counts its hits).
 * - A name that resolves to a private address is refused at the connection's own lookup.
 * - The engine's own origin still works, redirects within it too (at most three).
 */
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TryOnResponseSchema } from '@aidressup/contract';
import { getUser, signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { startCogStandIn, type CogStandIn } from '../test/stand-ins/cog-stand-in.js';
import { publicOnlyFetch, publicOnlyLookup } from './upstream.js';

let cog: CogStandIn;
let target: http.Server;
let targetPort = 0;
let targetHits = 0;
let PERSON: Buffer;
let GARMENT: Buffer;

beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  cog = await startCogStandIn();
  // "Internal" files on this machine, on IPv4 and IPv6 loopback alike: no request may reach them.
  target = http.createServer((_req, res) => {
    targetHits++;
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(PERSON);
  });
  await new Promise<void>((resolve) => target.listen(0, '::', resolve));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  await cog.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const make = testApps('sqlite', () => ({
  engines: 'configured',
  env: { COG_URL: cog.url, ENGINE_DEADLINE_MS: '20000' },
}));

async function tryOnWithOutput(url: string, given?: FastifyInstance) {
  const app = given ?? (await make()).app;
  const shopper = await signIn(app);
  cog.enqueue({ kind: 'ok', output: 'url', url });
  const res = await postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId: shopper.user.id,
      api: 'cog',
    },
    shopper.cookie,
  );
  const after = await getUser(app, shopper.cookie, shopper.user.id);
  return { res, after };
}

describe('result URLs an upstream names', () => {
  it('reads an endless chunked file only up to the limit, closes it, and refunds the try-on', async () => {
    // The app built and warmed first (two try-ons from the engine's own origin), so only the read is measured.
    const { app } = await make();
    expect((await tryOnWithOutput(`${cog.url}/files/result.png`, app)).res.statusCode).toBe(200);
    expect((await tryOnWithOutput(`${cog.url}/files/result.png`, app)).res.statusCode).toBe(200);
    const before = process.memoryUsage().rss;
    const { res, after } = await tryOnWithOutput(`${cog.url}/files/huge`, app);
    const grown = process.memoryUsage().rss - before;
    expectApiError(res, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
    expect(after.free_trials_used).toBe(0);
    expect(grown, `RSS grew by ${Math.round(grown / 1e6)} MB`).toBeLessThan(50 * 1024 * 1024);
    // The server stopped reading: far less than the 400 MB went out (socket buffers hold a little).
    expect(cog.hugeBytesSent()).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses every spelling of this machine, directly and by a redirect from the engine, before connecting', async () => {
    const spellings = [
      `127.0.0.1:${targetPort}`,
      `localhost:${targetPort}`,
      `[::1]:${targetPort}`,
      `[::ffff:127.0.0.1]:${targetPort}`,
      `[0:0:0:0:0:ffff:7f00:1]:${targetPort}`,
      `2130706433:${targetPort}`,
      `0x7f000001:${targetPort}`,
      `127.1:${targetPort}`,
    ];
    const urls = spellings.flatMap((s) => [`http://${s}/internal/secret.jpg`, `https://${s}/internal/secret.jpg`]);
    // A product of its own for each (three failures in a row would mark the engine down for a minute).
    for (const url of [...urls, ...urls.map((u) => `${cog.url}/redirect?to=${encodeURIComponent(u)}`)]) {
      const { res, after } = await tryOnWithOutput(url);
      expectApiError(res, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
      expect(after.free_trials_used, url).toBe(0);
    }
    expect(targetHits).toBe(0);
  });

  it('refuses a name that resolves to a private address at the connection itself', async () => {
    const lookedUp = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', { all: true }, (err) => resolve(err)),
    );
    expect(lookedUp?.code).toBe('ENOTPUBLIC');
    const fetchPublic = await publicOnlyFetch();
    await expect(fetchPublic(`http://localhost:${targetPort}/internal/secret.jpg`)).rejects.toMatchObject({
      cause: { code: 'ENOTPUBLIC' },
    });
    expect(targetHits).toBe(0);
  });

  it('still reads a file from the engine’s own origin, and follows at most three redirects within it', async () => {
    cog.reset();
    const own = `${cog.url}/files/result.png`;
    const direct = await tryOnWithOutput(own);
    expect(direct.res.statusCode, direct.res.body).toBe(200);
    expect(TryOnResponseSchema.parse(direct.res.json()).success).toBe(true);

    const hops = (n: number) => {
      let url = own;
      for (let i = 0; i < n; i++) url = `${cog.url}/redirect?to=${encodeURIComponent(url)}`;
      return url;
    };
    const three = await tryOnWithOutput(hops(3));
    expect(three.res.statusCode, three.res.body).toBe(200);
    const four = await tryOnWithOutput(hops(4));
    expectApiError(four.res, 502, 'ENGINE_FAILED');
    expect(four.after.free_trials_used).toBe(0);
  });
});
