/** Builds the app for a test on a fresh database, with the deterministic engine double; `testApps` is the way in. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, expect } from 'vitest';
import type { User } from '@aidressup/contract';
import type { TryOnEngine } from '@aidressup/engine';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { DatabaseKind } from '../db/database.js';
import { freshDatabaseEnv, tempDir } from './databases.js';
import { createEngineDouble, type EngineDouble } from './engine-double.js';
import type { Mailer } from '../mail/mailer.js';
import type { ProgressPluginOptions } from '../plugins/progress.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  engine: EngineDouble;
  /** Moves the app's clock. */
  clock: { now: Date; advance(ms: number): void };
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** The engines to offer; default the engine double. `'configured'`: the ones configuration enables. */
  engines?: Record<string, TryOnEngine> | 'configured';
  engine?: EngineDouble;
  start?: Date;
  webDistDir?: string;
  /** Reuse a data folder (and PostgreSQL database) instead of a fresh one. */
  dataDir?: string;
  databaseUrl?: string;
  mailer?: Mailer;
  logStream?: { write(line: string): void };
  /** Timings of the progress streams. */
  progress?: ProgressPluginOptions;
}

async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const dbEnv = options.dataDir
    ? { DATA_DIR: options.dataDir, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) }
    : await freshDatabaseEnv(kind);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...dbEnv, ...options.env });
  const engine = options.engine ?? createEngineDouble();
  const clock = {
    now: options.start ?? new Date('2026-05-01T10:00:00.000Z'),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    config,
    ...(options.engines === 'configured' ? {} : { engines: options.engines ?? { [engine.id]: engine } }),
    clock: () => clock.now,
    background: false,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    webDistDir: options.webDistDir ?? tempDir('aidressup-noweb-'),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
  await app.ready();
  return { app, config, engine, clock };
}

/**
 * The test apps of one suite. Call it in the suite's body (it registers the hook that closes them);
 * the function it returns builds an app with createTestApp, from the suite's `defaults` (a function
 * when they are known only once the suite's beforeAll has run) overlaid with its own options, the
 * `env` of both merged. Every app it built is closed after the suite, or after each test.
 */
export function testApps(
  kind: DatabaseKind,
  defaults: TestAppOptions | (() => TestAppOptions) = {},
  { closeAfter = 'all' }: { closeAfter?: 'all' | 'each' } = {},
): (options?: TestAppOptions) => Promise<TestApp> {
  const apps: TestApp[] = [];
  (closeAfter === 'each' ? afterEach : afterAll)(async () => {
    await Promise.all(apps.splice(0).map((t) => t.app.close()));
  });
  return async (options = {}) => {
    const base = typeof defaults === 'function' ? defaults() : defaults;
    const t = await createTestApp(kind, { ...base, ...options, env: { ...base.env, ...options.env } });
    apps.push(t);
    return t;
  };
}

/** The `name=value` of the response's session cookie, for the next request's Cookie header. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  // `__Host-aidu_session` when the app is served over https (an https PUBLIC_URL, CORS_ORIGIN).
  const cookie = res.cookies.find((c) => c.name === 'aidu_session' || c.name === '__Host-aidu_session');
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `${cookie.name}=${cookie.value}`;
}

let deviceSeq = 0;
export function newDeviceId(): string {
  return `device_${process.pid}_${++deviceSeq}_${Math.random().toString(36).slice(2, 10)}`;
}

export async function signIn(app: FastifyInstance, deviceId = newDeviceId(), ip = '203.0.113.10') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/anonymous',
    remoteAddress: ip,
    payload: {
      deviceId,
      deviceInfo: { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' },
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{
    user: { id: string; credits: number; free_trials_used: number; segment: string };
    isNew: boolean;
  }>();
  return { cookie: sessionCookieOf(res), user: body.user, isNew: body.isNew, res };
}

/** POSTs a JSON body, with the session cookie and from the client address when given. */
export function postJson(app: FastifyInstance, url: string, payload: unknown, cookie?: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The session's own user, as the page refreshes it (200 expected). */
export async function getUser(app: FastifyInstance, cookie: string, id: string): Promise<User> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/user/${id}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json<{ user: User }>().user;
}
