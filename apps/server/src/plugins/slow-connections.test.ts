/**
 * Security review, round two (item 4): against a real listening server, a body trickled in a byte
 * at a time is cut off, idle kept-alive connections close, and one client address holds a bounded
 * number of connections. Long answers (a slow engine) are not cut.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { testApps, signIn } from '../test/app.js';
import { createEngineDouble } from '../test/engine-double.js';
import { jpeg, multipart, png } from '../test/images.js';
import { exemptFromConnectionLimit } from './connection-limits.js';

// The sockets go first, then the apps (after-hooks run in reverse order).
const newApp = testApps('sqlite');
const sockets: net.Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
});

async function listening(env: Record<string, string>, engineDelayMs?: number) {
  const engine = engineDelayMs ? createEngineDouble({ delayMs: engineDelayMs }) : undefined;
  const t = await newApp({ env, ...(engine ? { engine } : {}) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, port: (t.app.server.address() as AddressInfo).port };
}

interface Conn {
  socket: net.Socket;
  /** Everything the server sent. */
  received: () => string;
  /** Resolves with the time (ms since connecting) at which the server closed the connection. */
  closed: Promise<number>;
}

function connect(port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Sends a byte every `everyMs` until the connection closes. */
function trickle(conn: Conn, everyMs: number): void {
  const timer = setInterval(() => {
    if (conn.socket.destroyed || conn.socket.writableEnded) clearInterval(timer);
    else conn.socket.write('a');
  }, everyMs);
  void conn.closed.then(() => clearInterval(timer));
}

/** Whichever comes first: the connection's close (its time), or `ms` (then null). */
function closedWithin(conn: Conn, ms: number): Promise<number | null> {
  return Promise.race([conn.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

const TIMEOUT_MS = 1_500;

describe('slow and idle connections', () => {
  it('attack 4: cuts off a body sent one byte at a time, with 408', async () => {
    const { port } = await listening({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
    const conn = await connect(port);
    conn.socket.write(
      'POST /api/auth/anonymous HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
    );
    trickle(conn, 200);
    const at = await closedWithin(conn, 8_000);
    expect(at, 'the connection is still open').not.toBeNull();
    expect(at!).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('attack 4: cuts off headers sent one byte at a time', async () => {
    const { port } = await listening({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
    const conn = await connect(port);
    conn.socket.write('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    trickle(conn, 200);
    expect(await closedWithin(conn, 8_000)).not.toBeNull();
  });

  it('attack 4: many slow connections from one address: past the limit refused at once, the rest cut off', async () => {
    const { port } = await listening({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), MAX_CONNECTIONS_PER_ADDRESS: '4' });
    const conns: Conn[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await connect(port);
      c.socket.write('POST /api/auth/logout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n');
      trickle(c, 250);
      conns.push(c);
    }
    const closes = await Promise.all(conns.map((c) => closedWithin(c, 8_000)));
    expect(closes.every((t) => t !== null)).toBe(true);
    // Four held until the timeout; three were closed as they opened, without an answer.
    const early = closes.filter((t) => t! < TIMEOUT_MS - 100).length;
    expect(early).toBe(3);
    expect(conns.filter((c) => c.received() === '')).toHaveLength(3);
    // Their places are free again.
    const res = await fetch(`http://127.0.0.1:${port}/api/config`);
    expect(res.status).toBe(200);
  });

  it('closes an idle kept-alive connection', async () => {
    const { port } = await listening({ KEEP_ALIVE_TIMEOUT_MS: '1000' });
    const conn = await connect(port);
    conn.socket.write('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const at = await closedWithin(conn, 6_000);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(at).not.toBeNull();
    expect(at!).toBeGreaterThanOrEqual(900);
  });

  it('does not cut a long answer: only the request must arrive in time', async () => {
    const { app, port } = await listening({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }, TIMEOUT_MS + 2_000);
    const { cookie, user } = await signIn(app);
    const body = multipart({
      userImage: { data: await jpeg() },
      clothingImage: { data: await png(), contentType: 'image/png' },
      category: 'upper_body',
      userId: user.id,
    });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/process-image',
          headers: { ...body.headers, cookie, 'content-length': body.payload.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body.payload);
    });
    expect(status).toBe(200);
  });

  it('lets the proxies TRUST_PROXY names hold any number of connections', async () => {
    const { port } = await listening({
      REQUEST_TIMEOUT_MS: '10000',
      MAX_CONNECTIONS_PER_ADDRESS: '2',
      TRUST_PROXY: '127.0.0.1/8',
    });
    const conns = await Promise.all(Array.from({ length: 5 }, () => connect(port)));
    for (const c of conns) c.socket.write('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // Every one is answered (past the limit, one would be closed unanswered instead).
    await expect
      .poll(() => conns.map((c) => /^HTTP\/1\.1 200/.test(c.received())))
      .toEqual([true, true, true, true, true]);
    expect(conns.every((c) => !c.socket.destroyed)).toBe(true);
  });
});

describe('which addresses the connection limit leaves alone', () => {
  it('none without TRUST_PROXY; every peer with a hop count; the listed proxies with a list', () => {
    expect(exemptFromConnectionLimit(false)('127.0.0.1')).toBe(false);
    expect(exemptFromConnectionLimit(1)('203.0.113.9')).toBe(true);
    const listed = exemptFromConnectionLimit(['10.0.0.0/8', '192.168.1.7', 'loopback', 'fd00::/8']);
    expect(listed('10.1.2.3')).toBe(true);
    expect(listed('::ffff:10.1.2.3')).toBe(true);
    expect(listed('192.168.1.7')).toBe(true);
    expect(listed('192.168.1.8')).toBe(false);
    expect(listed('127.0.0.1')).toBe(true);
    expect(listed('::1')).toBe(true);
    expect(listed('fd00::5')).toBe(true);
    expect(listed('203.0.113.9')).toBe(false);
  });
});
