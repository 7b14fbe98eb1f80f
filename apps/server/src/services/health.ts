/**
 * The health report (section 13 of docs/architecture.md): each dependency's and engine's state,
 * checked without spending money. Two readers: the public `GET /api/health` gets states only
 * (`ok`, `degraded`, `down`, with counts and latencies) and never a reason, URL, address, email or
 * error text; operators' `GET /api/admin/health` gets each engine's details and reasons, and how
 * kept photos are sealed.
 */
import type { Kysely } from 'kysely';
import type { AdminHealthResponse, HealthResponse } from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { pingDatabase, type DatabaseKind } from '../db/database.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { Storage } from '../storage/storage.js';
import type { PhotoKeyNote } from '../config/photos.js';

export interface HealthDeps {
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  storage: Storage;
  engines: Pick<EngineRegistry, 'status'>;
  /** The queue, with REDIS_URL; none: try-ons run in this process. */
  queue?: { counts(): Promise<{ waiting: number; active: number }> } | undefined;
  version: string;
  /** When this process started (epoch ms). */
  startedAt: number;
}

async function timed(
  check: () => Promise<void>,
  timeoutMs = 3000,
): Promise<{ status: 'ok' | 'down'; latencyMs?: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      }),
    ]);
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { status: 'down' };
  } finally {
    clearTimeout(timer);
  }
}

/** In-process jobs: disabled; with REDIS_URL: the queue's waiting and active jobs, or down. */
async function queueCheck(deps: HealthDeps): Promise<HealthResponse['checks']['queue']> {
  const queue = deps.queue;
  if (!queue) return { status: 'disabled', mode: 'in-process' };
  let counts = { waiting: 0, active: 0 };
  const check = await timed(async () => {
    counts = await queue.counts();
  });
  return check.status === 'ok' ? { ...check, mode: 'redis', ...counts } : { status: 'down', mode: 'redis' };
}

/** The full report, engines with their details and reasons (operators only). */
export async function detailedHealth(deps: HealthDeps, photoKey: PhotoKeyNote): Promise<AdminHealthResponse> {
  const [database, storage, queue] = await Promise.all([
    timed(() => pingDatabase(deps.db)),
    timed(() => deps.storage.check()),
    queueCheck(deps),
  ]);
  const engines = deps.engines.status();
  const engineDown = Object.values(engines).some((e) => e.status !== 'ok');
  const down = database.status === 'down' || storage.status === 'down' || queue.status === 'down';
  return {
    status: down ? 'down' : engineDown ? 'degraded' : 'ok',
    version: deps.version,
    uptime: Math.round((Date.now() - deps.startedAt) / 1000),
    checks: {
      database: { ...database, kind: deps.dbKind },
      storage: { ...storage, kind: deps.storage.kind },
      engines,
      queue,
    },
    photos: { sealedWith: photoKey.source, warning: photoKey.warning },
  };
}

/** What anyone may read: each state, counts and latencies; no reason, URL, address, email or error. */
export function publicHealth(report: AdminHealthResponse): HealthResponse {
  const { database, storage, queue, engines } = report.checks;
  return {
    status: report.status,
    version: report.version,
    uptime: report.uptime,
    checks: {
      database: pick(database, ['status', 'latencyMs', 'kind']),
      storage: pick(storage, ['status', 'latencyMs', 'kind']),
      queue: pick(queue, ['status', 'latencyMs', 'mode', 'waiting', 'active']),
      engines: Object.fromEntries(Object.entries(engines).map(([id, e]) => [id, pick(e, ['status', 'warmed'])])),
    },
  };
}

function pick<T extends { status: string }>(check: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(check).filter(([k]) => keys.includes(k))) as T;
}
