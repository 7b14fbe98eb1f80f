/**
 * A tiny local HTTP server for stand-ins of paid third-party APIs: listens on
 * 127.0.0.1 with a free port, records every request it receives and notices when a
 * client gives up on a request before it was answered.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** Set when the client closed the connection before the answer was sent. */
  abortedByClient: boolean;
}

export type StandInHandler = (req: RecordedRequest, res: http.ServerResponse) => unknown;

export interface StandInServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startStandInServer(handler: StandInHandler): Promise<StandInServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        json = undefined;
      }
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        json,
        abortedByClient: false,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.abortedByClient = true;
      });
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`stand-in failure: ${String(err)}`);
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text).toString(),
    ...headers,
  });
  res.end(text);
}

/** An answer that claims to be JSON but is not. */
export function sendMalformedJson(res: http.ServerResponse, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end('{"candidates": [ {"content": <html>upstream error</html>');
}

/** A request that is never answered (the client must give up on its own). */
export function hang(_res: http.ServerResponse): void {
  // Deliberately leave the response open.
}

/**
 * A result image like a try-on service returns: `width`×`height`, filled with a colour
 * derived from the person photo (so tests can tell it came from that photo), PNG or JPEG.
 */
export async function makeResultImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' = 'png',
  fromPhoto?: Buffer,
): Promise<Buffer> {
  let background = { r: 180, g: 60, b: 90 };
  if (fromPhoto) {
    const stats = await sharp(fromPhoto).stats();
    const [r, g, b] = stats.channels.map((c) => Math.round(c.mean));
    background = { r: r ?? 0, g: g ?? 0, b: b ?? 0 };
  }
  const img = sharp({ create: { width, height, channels: 3, background } });
  return format === 'png' ? img.png({ compressionLevel: 1 }).toBuffer() : img.jpeg({ quality: 85 }).toBuffer();
}
