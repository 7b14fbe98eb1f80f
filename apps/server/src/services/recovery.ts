/**
 * Crash recovery (docs/architecture.md, "14. Scale-out and crash recovery"): nothing is lost across a crash, and nothing waits for the
 * engine deadline to find out.
 *
 * Every API and worker process registers itself in `processes` and refreshes a heartbeat every
 * couple of seconds. Each try-on row names its owner: the API process that reserved it, or the
 * queue worker that took its job (`claimTryOn`). A process is gone when
 *  - it runs on this machine, in this pid namespace, and its pid no longer exists (or is ours,
 *    from before this OS process started: a restart that got the same pid, e.g. pid 1 in a
 *    container), which is seen at once; or
 *  - its heartbeat is older than STALE_AFTER_MS (another machine, or a restarted container),
 *    unless the database was out of reach within STALE_AFTER_MS (restarting: then nobody could
 *    beat, and the heartbeats are judged again once they all had time to).
 * At start-up and on every sweep, the gone processes' rows are deleted, and every `processing`
 * try-on whose owner is not a registered process is settled: completed when its result was
 * stored (`staged_result` names it and storage has it), else refunded. The sweep also refunds any
 * try-on past its deadline (plus a grace), whoever owns it.
 *
 * Settling is always a guarded update from `processing` (and, for orphans, from "still owned by
 * the gone process"), the same guard the engine path, the queue's waiting API side and BullMQ's
 * stalled-job failure go through: whichever comes first settles the try-on, the others change
 * nothing. BullMQ never retries a stalled job (maxStalledCount 0), and a worker taking a job
 * first claims the row, so a settled try-on is never run again.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import type { Storage } from '../storage/storage.js';
import { deleteProcesses, insertProcess, listProcesses, touchProcess } from '../repositories/processes.js';
import { listOrphanedTryOns } from '../repositories/tryons.js';
import { refundOverdueTryOns, settleAbandonedTryOn } from '../tryon/settle.js';

export const HEARTBEAT_MS = 2_000;
/** A process whose heartbeat is older than this is gone (five missed heartbeats). */
export const STALE_AFTER_MS = 10_000;
/** Past the deadline by this much, a try-on is refunded whoever owns it. */
const DEADLINE_GRACE_MS = 5_000;

export interface RecoveryDeps {
  db: Kysely<Database>;
  storage: Storage;
  /** The app's clock, for ledger times and deadlines. Heartbeats use the real time. */
  clock: () => Date;
  deadlineMs: number;
  log?: { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void };
}

interface SweepReport {
  goneProcesses: number;
  completed: number;
  refunded: number;
  pastDeadline: number;
}

export interface ProcessHandle {
  readonly id: string;
  /** One recovery pass (also runs at start-up and on the schedule). */
  sweep(): Promise<SweepReport>;
  /** Stops the schedule and unregisters; try-ons still running are settled by the next sweep anywhere. */
  stop(): Promise<void>;
}

/** This machine and pid namespace: pids are comparable only within it. */
function hostKey(): string {
  const read = (f: string, link = false): string => {
    try {
      return link ? fs.readlinkSync(f) : fs.readFileSync(f, 'utf8').trim();
    } catch {
      return '';
    }
  };
  return [os.hostname(), read('/proc/sys/kernel/random/boot_id'), read('/proc/self/ns/pid', true)].join('|');
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const HOST = hostKey();
/** When this OS process started (a row with our pid from before then is an earlier incarnation). */
const OS_PROCESS_STARTED = Date.now() - process.uptime() * 1000;

/**
 * Whether the process of `row` is gone. `heartbeatsTell` false: its heartbeat's age says nothing
 * (the database was out of reach until lately, so nobody could write one), only a missing pid does.
 */
export function isGone(
  row: { id: string; host: string; pid: number; started_at: string; heartbeat_at: string },
  selfId: string,
  nowMs = Date.now(),
  heartbeatsTell = true,
): boolean {
  if (row.id === selfId) return false;
  if (heartbeatsTell && nowMs - Date.parse(row.heartbeat_at) > STALE_AFTER_MS) return true;
  if (row.host !== HOST) return false;
  if (row.pid === process.pid) return Date.parse(row.started_at) < OS_PROCESS_STARTED - 1_000;
  return !pidExists(row.pid);
}

/**
 * Registers this process and settles at once what gone processes left behind; then keeps a
 * heartbeat every HEARTBEAT_MS and, with `sweep` (default true), sweeps at the same pace.
 */
export async function startProcess(
  deps: RecoveryDeps,
  kind: 'api' | 'worker',
  options: { sweep?: boolean } = {},
): Promise<ProcessHandle> {
  const id = newId();
  const startedAt = iso(new Date());
  const row = () => ({ id, kind, host: HOST, pid: process.pid, started_at: startedAt, heartbeat_at: iso(new Date()) });
  await insertProcess(deps.db, row());

  let stopped = false;
  let running: Promise<SweepReport> | undefined;
  /**
   * Since when this process reaches the database without a failure (undefined: it does not now).
   * After an outage (the database restarting) every heartbeat is old, the live processes' too:
   * for STALE_AFTER_MS an old heartbeat proves nothing, so try-ons still running are not refunded
   * as orphans while their processes beat again.
   */
  let reachableSince: number | undefined = 0;
  const beat = async (): Promise<void> => {
    try {
      if (!(await touchProcess(deps.db, id, iso(new Date())))) await insertProcess(deps.db, row());
      reachableSince ??= Date.now();
    } catch (err) {
      reachableSince = undefined;
      throw err;
    }
  };

  async function sweepOnce(): Promise<SweepReport> {
    const { db } = deps;
    // Our own heartbeat first; re-register if someone took us for dead.
    await beat();
    const nowMs = Date.now();
    const heartbeatsTell = reachableSince !== undefined && nowMs - reachableSince >= STALE_AFTER_MS;
    const gone = (await listProcesses(db)).filter((p) => isGone(p, id, nowMs, heartbeatsTell));
    await deleteProcesses(
      db,
      gone.map((p) => p.id),
    );

    let completed = 0;
    let refunded = 0;
    for (;;) {
      const orphans = await listOrphanedTryOns(db, 100);
      let settled = 0;
      for (const t of orphans) {
        const outcome = await settleAbandonedTryOn(deps, {
          id: t.id,
          ownerId: t.owner_id!,
          stagedResult: t.staged_result,
        });
        if (outcome === 'completed') completed++;
        if (outcome === 'refunded') refunded++;
        if (outcome) settled++;
      }
      if (orphans.length < 100 || settled === 0) break;
    }

    const now = deps.clock();
    const pastDeadline = await refundOverdueTryOns(
      db,
      new Date(now.getTime() - deps.deadlineMs - DEADLINE_GRACE_MS),
      now,
    );
    const report = { goneProcesses: gone.length, completed, refunded, pastDeadline };
    if (completed + refunded + pastDeadline > 0)
      deps.log?.warn({ recovery: report }, 'settled try-ons interrupted by a crash or past their deadline');
    return report;
  }

  function sweep(): Promise<SweepReport> {
    // One pass at a time; a caller during a pass gets that pass's report.
    running ??= sweepOnce()
      .catch((err: unknown) => {
        reachableSince = undefined;
        throw err;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  await sweep();

  // Called as the logger's method: pino's methods need their logger as `this` (taken off it, one
  // threw, and the unhandled rejection ended the process whenever the database was away).
  const fail = (err: unknown) => {
    const log = deps.log;
    if (log?.error) log.error({ err }, 'recovery heartbeat or sweep failed');
    else log?.warn({ err }, 'recovery heartbeat or sweep failed');
  };
  const timer = setInterval(() => {
    if (stopped) return;
    if (options.sweep === false) {
      beat().catch(fail);
    } else {
      sweep().catch(fail);
    }
  }, HEARTBEAT_MS);
  timer.unref();

  return {
    id,
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      await deleteProcesses(deps.db, [id]).catch(() => undefined);
    },
  };
}
