/**
 * An app for the operator console's tests: a fresh database, the engine double, a movable clock,
 * and the options those tests use (operators in ADMIN_EMAILS, a mailer that keeps sign-in codes).
 * It builds the app itself, so the suites do not depend on how the shared test-app helper is
 * organised.
 */
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { DatabaseKind } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { freshDatabaseEnv, tempDir } from './databases.js';
import { createEngineDouble } from './engine-double.js';
import type { TestApp } from './app.js';

export async function createAdminTestApp(
  kind: DatabaseKind,
  options: { env?: Record<string, string>; mailer?: Mailer; start?: Date } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...(await freshDatabaseEnv(kind)),
    ...options.env,
  });
  const engine = createEngineDouble();
  const clock = {
    now: options.start ?? new Date('2026-05-01T10:00:00.000Z'),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    config,
    engines: { [engine.id]: engine },
    clock: () => clock.now,
    background: false,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    webDistDir: tempDir('aidressup-noweb-'),
  });
  await app.ready();
  return { app, config, engine, clock };
}
