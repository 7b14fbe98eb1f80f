/**
 * Retention, the promises of the legal pages: uploads (and a preview's photos kept for "Make it
 * photo-real") gone within 30 minutes,
 * results after 30 days, transaction records (grants, credit events, webhooks) after 7 years,
 * kept person photos (My photos) after KEPT_PHOTO_DAYS unused (and sealed again after a PHOTO_KEY
 * rotation, `sweepKeptPhotos`).
 * Runs on a schedule, in batches, with an injectable clock; safe to run twice or concurrently.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { RESULT_RETENTION_DAYS, TRANSACTION_RETENTION_YEARS, UPLOAD_RETENTION_MINUTES } from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { iso } from '../db/ids.js';
import type { Storage } from '../storage/storage.js';
import type { SealedStore } from '../storage/sealed-store.js';
import { sweepKeptPhotos } from './my-photos.js';
import { LockUnavailableError, type RunLock } from '../redis/lock.js';
import { expireGrants } from '../ledger/ledger.js';
import {
  clearPreviewPhotos,
  clearResultName,
  listExpiredPreviewPhotos,
  listExpiredResults,
} from '../repositories/tryons.js';
import { deleteExpiredSessions } from '../repositories/sessions.js';
import { deleteExpiredEmailCodes, deleteOldSignInFailures } from '../repositories/email-codes.js';
import { deleteIpSignupsBefore } from '../repositories/users.js';
import { blankOldShopperHashes, deleteExpiredEmbedSessions } from '../repositories/merchants.js';
import {
  deleteBillingEventsBefore,
  deleteCreditEventsBefore,
  deleteGrantsBefore,
  deleteTryonsBefore,
} from '../repositories/retention.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface RetentionDeps {
  db: Kysely<Database>;
  storage: Storage;
  clock: () => Date;
  log?: FastifyBaseLogger;
  /** Kept person photos: where they are sealed, how long one stays unused, and whether a key rotation is under way. */
  photos?: { vault: SealedStore; keptPhotoDays: number; rotating?: boolean };
}

export interface RetentionReport {
  resultsDeleted: number;
  /** Try-ons whose preview photos (for "Make it photo-real") were deleted. */
  previewPhotosDeleted: number;
  strayUploadsDeleted: number;
  orphanResultFilesDeleted: number;
  grantsExpired: number;
  creditEventsDeleted: number;
  tryonsDeleted: number;
  grantsDeleted: number;
  billingEventsDeleted: number;
  sessionsDeleted: number;
  signInCodesDeleted: number;
  ipCountersDeleted: number;
  embedSessionsDeleted: number;
  /** Kept person photos unused for KEPT_PHOTO_DAYS (and keeps a crash left half-done), deleted. */
  personPhotosDeleted: number;
  /** Kept person photos sealed again with the current PHOTO_KEY. */
  personPhotosResealed: number;
}

/** Repeats `batch` until it handles fewer than `size` items (or `maxBatches` runs). */
async function inBatches(size: number, batch: (size: number) => Promise<number>, maxBatches = 1000): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await batch(size);
    total += n;
    if (n < size) break;
  }
  return total;
}

/** The date `years` calendar years before `now`. */
function yearsBefore(now: Date, years: number): Date {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d;
}

export async function runRetention(
  deps: RetentionDeps,
  options: { batchSize?: number } = {},
): Promise<RetentionReport> {
  const { db, storage } = deps;
  const size = options.batchSize ?? 200;
  const now = deps.clock();

  // Results (and the row's link to them) 30 days after creation.
  const resultsDeleted = await inBatches(size, async (n) => {
    const due = await listExpiredResults(db, now, n);
    for (const row of due) {
      await storage.delete(`results/${row.result_name}`);
      await clearResultName(db, row.id);
    }
    return due.length;
  });

  // Previews' photos kept for "Make it photo-real", once their time is up (the row forgets them first).
  const previewPhotosDeleted = await inBatches(size, async (n) => {
    const due = await listExpiredPreviewPhotos(db, now, n);
    for (const row of due) {
      await clearPreviewPhotos(db, row.id);
      for (const key of row.keys) await storage.delete(key);
    }
    return due.length;
  });

  // Any stored upload (a queued job's, or a preview's photo) within 30 minutes.
  const uploadCutoff = new Date(now.getTime() - UPLOAD_RETENTION_MINUTES * MINUTE_MS);
  const strayUploadsDeleted = await inBatches(size, async (n) => {
    const keys = await storage.listOlderThan('uploads/', uploadCutoff, n);
    for (const key of keys) await storage.delete(key);
    return keys.length;
  });

  // Result files older than 30 days whatever the database says (e.g. written just before a crash).
  const resultCutoff = new Date(now.getTime() - RESULT_RETENTION_DAYS * DAY_MS);
  const orphanResultFilesDeleted = await inBatches(size, async (n) => {
    const keys = await storage.listOlderThan('results/', resultCutoff, n);
    for (const key of keys) await storage.delete(key);
    return keys.length;
  });

  const grantsExpired = await inBatches(size, (n) => expireGrants(db, now, n));

  // Transaction records after 7 years, oldest first; rows still referenced are kept.
  const cutoff = iso(yearsBefore(now, TRANSACTION_RETENTION_YEARS));
  const creditEventsDeleted = await inBatches(size, (n) => deleteCreditEventsBefore(db, cutoff, n));
  const tryonsDeleted = await inBatches(size, (n) => deleteTryonsBefore(db, cutoff, n));
  const grantsDeleted = await inBatches(size, (n) => deleteGrantsBefore(db, cutoff, n));
  const billingEventsDeleted = await inBatches(size, (n) => deleteBillingEventsBefore(db, cutoff, n));

  // Sessions once expired; sign-in codes a day after they expired; per-address sign-up counters
  // once their day is two days past.
  const sessionsDeleted = await inBatches(size, (n) => deleteExpiredSessions(db, now, n));
  const signInCodesDeleted = await inBatches(size, (n) =>
    deleteExpiredEmailCodes(db, new Date(now.getTime() - DAY_MS), n),
  );
  // Wrong sign-in codes count for an hour; their records go after a day.
  await inBatches(size, (n) => deleteOldSignInFailures(db, new Date(now.getTime() - DAY_MS), n));
  const ipCountersDeleted = await deleteIpSignupsBefore(db, iso(new Date(now.getTime() - 2 * DAY_MS)).slice(0, 10));
  // The shop widget (docs/embed.md): shoppers' embed sessions 30 days after they ended (the
  // merchant's page lists them until then); the address hash on embed try-ons after two days.
  const embedSessionsDeleted = await inBatches(size, (n) =>
    deleteExpiredEmbedSessions(db, iso(new Date(now.getTime() - 30 * DAY_MS)), n),
  );
  await inBatches(size, (n) => blankOldShopperHashes(db, iso(new Date(now.getTime() - 2 * DAY_MS)), n));
  const photos = deps.photos
    ? await sweepKeptPhotos({ db, clock: deps.clock, log: deps.log, ...deps.photos }, size)
    : { unusedDeleted: 0, pendingDeleted: 0, resealed: 0, unreadableDeleted: 0 };

  const report = {
    resultsDeleted,
    previewPhotosDeleted,
    strayUploadsDeleted,
    orphanResultFilesDeleted,
    grantsExpired,
    creditEventsDeleted,
    tryonsDeleted,
    grantsDeleted,
    billingEventsDeleted,
    sessionsDeleted,
    signInCodesDeleted,
    ipCountersDeleted,
    embedSessionsDeleted,
    personPhotosDeleted: photos.unusedDeleted + photos.pendingDeleted + photos.unreadableDeleted,
    personPhotosResealed: photos.resealed,
  };
  if (Object.values(report).some((v) => v > 0)) deps.log?.info({ retention: report }, 'retention run');
  return report;
}

export interface ScheduleOptions {
  /** With several API instances: only the holder of this lock runs (the others skip that tick). */
  lock?: RunLock;
  /** Delay before the first run (ms); default 5 s. */
  firstRunAfterMs?: number;
  /** The run itself; default `runRetention` (tests). */
  run?: (deps: RetentionDeps) => Promise<unknown>;
}

/**
 * Runs retention soon and then every `intervalMs`; one run at a time in this process and, with
 * a lock, across processes. Returns a stop function.
 */
export function scheduleRetention(
  deps: RetentionDeps,
  intervalMs = 10 * MINUTE_MS,
  options: ScheduleOptions = {},
): () => void {
  const run = options.run ?? runRetention;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    const once = options.lock
      ? options.lock
          .runExclusive('retention', () => run(deps))
          .then(
            (ran) => {
              if (!ran) deps.log?.debug('retention: another instance is running it');
            },
            (err: unknown) => {
              if (!(err instanceof LockUnavailableError)) throw err;
              // Redis is away: run anyway. Retention is safe to run concurrently; the lock only saves work.
              deps.log?.warn({ err }, 'retention: lock unavailable, running without it');
              return run(deps);
            },
          )
      : run(deps);
    once
      .catch((err: unknown) => deps.log?.error({ err }, 'retention run failed'))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(tick, options.firstRunAfterMs ?? 5_000);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
