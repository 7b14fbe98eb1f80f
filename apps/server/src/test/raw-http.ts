/**
 * Requests sent byte for byte over a socket, so a test can send any request target (an encoded,
 * dotted or absolute-form path) exactly as an attacker would: HTTP clients and `app.inject`
 * normalise some of them first. And a watch on which route handlers ran (Fastify's
 * `fastify.request.handler` diagnostics channel), so a test can tell a request stopped by a hook
 * from one a handler answered.
 */
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers (set-cookie) joined with '\n'. */
  headers: Record<string, string>;
  body: string;
}

/** Sends one HTTP/1.1 request with `target` written as given, and reads the whole answer. */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<RawResponse> {
  const head = [
    `${method} ${target} HTTP/1.1`,
    'host: 127.0.0.1',
    'connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body !== '' || ['POST', 'PUT', 'PATCH'].includes(method) ? [`content-length: ${Buffer.byteLength(body)}`] : []),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parse(Buffer.concat(chunks).toString('latin1')));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

function parse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}\n${value}`;
  }
  let body = raw.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (;;) {
      const lineEnd = body.indexOf('\r\n');
      const size = parseInt(body.slice(0, lineEnd), 16);
      if (!size) break;
      out += body.slice(lineEnd + 2, lineEnd + 2 + size);
      body = body.slice(lineEnd + 2 + size + 2);
    }
    body = out;
  }
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

/** A route handler that began: the route's declared method and URL. */
export interface HandlerRun {
  method: string;
  url: string;
}

/**
 * Records every route handler Fastify begins (in this process) until `stop()`: a request that a
 * hook refused (cross-site, not found, rate limited) never shows here.
 */
export function watchHandlers(): { runs: HandlerRun[]; stop(): void } {
  const runs: HandlerRun[] = [];
  const { start } = diagnostics.tracingChannel('fastify.request.handler');
  const onStart = (message: unknown) => {
    const route = (message as { route?: { method?: unknown; url?: unknown } }).route;
    runs.push({ method: String(route?.method), url: String(route?.url) });
  };
  start.subscribe(onStart);
  return { runs, stop: () => start.unsubscribe(onStart) };
}
