/**
 * A stand-in for an S3-compatible object store: a real S3-speaking server (the `s3rver` package)
 * on 127.0.0.1 with one bucket, its objects in a temporary folder. It checks request signatures,
 * so the product's credentials really travel. `stop()` takes it away (open connections cut) and
 * `start()` brings it back on the same port with the same objects, for "the store went away" tests.
 */
import fs from 'node:fs';
import type { Socket } from 'node:net';
import S3rver from 's3rver';
import { tempDir } from '../databases.js';

export interface S3StandIn {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT. */
  readonly endpoint: string;
  readonly bucket: string;
  /** The S3_* environment that points the product at this stand-in. */
  readonly env: Record<string, string>;
  /** Objects in the bucket (keys), read from the stand-in's folder. */
  keys(): string[];
  running(): boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and removes its folder. */
  close(): Promise<void>;
}

// s3rver's defaults; it checks signatures made with exactly these.
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

export async function startS3StandIn(options: { bucket?: string } = {}): Promise<S3StandIn> {
  const bucket = options.bucket ?? 'aidressup-test';
  const directory = tempDir('aidressup-s3-');
  let port = 0;
  let server: S3rver | undefined;
  const sockets = new Set<Socket>();

  async function start(): Promise<void> {
    if (server) return;
    const s = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
      vhostBuckets: false,
    });
    const address = await s.run();
    port = address.port;
    s.httpServer!.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server = s;
  }

  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = undefined;
    const closed = s.close();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  }

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    keys() {
      // s3rver keeps `<bucket>/<key>._S3rver_object` files (plus metadata files).
      const root = `${directory}/${bucket}`;
      const out: string[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          if (entry.isDirectory()) walk(`${dir}/${entry.name}`, `${prefix}${entry.name}/`);
          else if (entry.name.endsWith('._S3rver_object'))
            out.push(prefix + entry.name.slice(0, -'._S3rver_object'.length));
        }
      };
      if (fs.existsSync(root)) walk(root, '');
      return out.sort();
    },
    running: () => server !== undefined,
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
