/**
 * One queued try-on: what the API puts on the queue (`queued-runner.ts`) and what a worker does
 * with it (`worker.ts`). The tryons
 * row is the single source of truth: completing and refunding are both guarded updates from
 * `processing`, so whichever side settles first wins and the other changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ErrorCode, TryOnCategory, TryOnStage } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { LogSink } from '../logging.js';
import { claimTryOn, findTryOn } from '../repositories/tryons.js';
import { untilDatabaseAnswers } from '../db/outage.js';
import { EXTENSION_OF, type NormalisedImage } from '../services/images.js';
import { withTimeout } from '../timeout.js';
import { storeResult } from './results.js';
import { failureOf, keepAnalysis, keptPersonInput, runLimit, type KeptPersonRef } from './runner.js';
import type { KeptPhotoAccess } from '../services/my-photos.js';
import { runWithFailover } from './engine-call.js';
import { tryOnCostMicros, type EnginePrice } from '../config/engine-costs.js';
import { refundFailedTryOn } from './settle.js';

export const TRYON_QUEUE_NAME = 'tryon';

/**
 * BullMQ job priorities (a lower number goes first). Every try-on job gets one: BullMQ runs jobs
 * without a priority before all prioritized ones, so normal jobs carry one too.
 */
export const JOB_PRIORITY = { priority: 1, normal: 2 } as const;

/** The job payload: references only, the photos themselves stay in storage. */
export interface TryOnJobData {
  tryonId: string;
  userId: string;
  /** The person photo's upload; absent when it is a kept photo (`keptPhotoId`). */
  personKey?: string;
  /** The person photo is one of the shopper's kept photos (My photos): the worker reads it, sealed. */
  keptPhotoId?: string;
  garmentKey: string;
  /** A whole outfit's bottom (then the garment is the top, category upper_body). */
  lowerGarmentKey?: string;
  category: TryOnCategory;
  engine: string;
  /** When the try-on's deadline passes (epoch milliseconds); the worker stops there. */
  deadlineAt: number;
  /** The API request that posted the try-on: the worker's log lines carry it as `reqId`. */
  reqId?: string;
  /** The page's id for the try-on's progress events (reported as the job's progress). */
  progressId?: string;
  /** When the API accepted the try-on (epoch ms): progress events count from there. */
  acceptedAt?: number;
  /** The result's longest side at most (a free trial's result); absent: the engine's full size. */
  resultMaxSide?: number;
}

/** What a job returns to the waiting API process. */
export type TryOnJobResult = { ok: true; resultName: string } | { ok: false; code: ErrorCode; message: string };

/** Upload keys: `uploads/` + 32 random bytes in base64url + the extension. */
export function newUploadKey(image: NormalisedImage): string {
  return `uploads/${randomBytes(32).toString('base64url')}${EXTENSION_OF[image.mimeType]}`;
}

/** The job's stored photos. */
function uploadKeys(data: Pick<TryOnJobData, 'personKey' | 'garmentKey' | 'lowerGarmentKey'>): string[] {
  return [
    ...(data.personKey ? [data.personKey] : []),
    data.garmentKey,
    ...(data.lowerGarmentKey ? [data.lowerGarmentKey] : []),
  ];
}

export async function deleteUploads(
  storage: Storage,
  data: Pick<TryOnJobData, 'personKey' | 'garmentKey' | 'lowerGarmentKey'>,
): Promise<void> {
  await Promise.all(uploadKeys(data).map((key) => storage.delete(key)));
}

export interface TryOnJobDeps {
  db: Kysely<Database>;
  storage: Storage;
  engines: EngineRegistry;
  clock?: () => Date;
  /** The job's logger (the worker gives a child carrying the request id). */
  log?: LogSink;
  /** This worker's process id: it takes ownership of the try-on before running it (crash recovery). */
  ownerId?: string;
  /** Aborted when the worker shuts down and its grace is over: the job gives up and is refunded. */
  stop?: AbortSignal;
  /** Each engine's price, to record what the try-on cost. */
  prices?: ReadonlyMap<string, EnginePrice> | undefined;
  /** Kept person photos (My photos), for jobs that name one. */
  keptPhotos?: KeptPhotoAccess | undefined;
}

/**
 * Runs one queued try-on to the end: engine under the deadline (a whole outfit through
 * `runEngine`), result stored, row completed — or refunded on failure. The uploads are deleted
 * whatever happens. `report` gets the stages
 * (reading, fitting, finishing, then done or failed).
 */
export async function processTryOnJob(
  deps: TryOnJobDeps,
  data: TryOnJobData,
  report: (stage: TryOnStage) => void = () => undefined,
): Promise<TryOnJobResult> {
  const now = deps.clock ?? (() => new Date());
  try {
    // Take the try-on over (its owner is now this worker); settled already (the API gave up
    // waiting and refunded, or recovery settled it): nothing to do. (The database restarting: wait for it.)
    const ownerId = deps.ownerId;
    const taken = await untilDatabaseAnswers(async () =>
      ownerId
        ? claimTryOn(deps.db, data.tryonId, ownerId)
        : (await findTryOn(deps.db, data.tryonId))?.status === 'processing',
    );
    if (!taken) throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled before the job ran');
    // The deadline, or the end of the shutdown's grace.
    const { signal, error: stopped } = runLimit(data.deadlineAt, deps.stop);
    if (signal.aborted) throw stopped();
    report('reading');
    const [person, garment, lowerGarment] = await Promise.all([
      data.personKey ? deps.storage.get(data.personKey) : undefined,
      deps.storage.get(data.garmentKey),
      data.lowerGarmentKey ? deps.storage.get(data.lowerGarmentKey) : undefined,
    ]);
    if (person === null || !garment || lowerGarment === null)
      throw new EngineError('ENGINE_TIMEOUT', undefined, 'uploads are gone (the try-on ended elsewhere)');
    // A kept photo: read (and opened) here; deleted meanwhile, the try-on fails and is refunded.
    const kept = data.keptPhotoId ? await deps.keptPhotos?.read(data.keptPhotoId) : undefined;
    const personBytes = person?.body ?? kept?.image.data;
    if (!personBytes) throw new EngineError('ENGINE_FAILED', undefined, 'the kept person photo is gone');
    const keptRef: KeptPersonRef | undefined = kept ? { photoId: kept.photoId, analysis: kept.analysis } : undefined;
    report('fitting');
    const made = await withTimeout(
      runWithFailover(
        deps.engines,
        data.engine,
        {
          person: personBytes,
          garment: garment.body,
          category: data.category,
          lowerGarment: lowerGarment?.body,
          keptPerson: keptPersonInput(keptRef),
          signal,
          deadlineAt: data.deadlineAt,
        },
        deps.log,
      ),
      signal,
      stopped,
    );
    report('finishing');
    if (made.output.keptPersonAnalysis && keptRef)
      await keepAnalysis(
        { keptPhotos: deps.keptPhotos, log: deps.log },
        keptRef.photoId,
        made.output.keptPersonAnalysis,
      );
    const name = await storeResult(deps, data.tryonId, made.output.image, signal, now(), {
      maxSide: data.resultMaxSide,
      made: { engine: made.engineId, costMicros: tryOnCostMicros(deps.prices, made) },
    });
    report('done');
    return { ok: true, resultName: name };
  } catch (err) {
    const failure = failureOf(err);
    await refundFailedTryOn(
      { db: deps.db, clock: now, log: deps.log },
      { tryonId: data.tryonId, engineId: data.engine },
      failure,
    );
    report('failed');
    return { ok: false, code: failure.code, message: failure.message };
  } finally {
    await deleteUploads(deps.storage, data).catch((err: unknown) =>
      deps.log?.warn({ err, tryonId: data.tryonId }, 'could not delete the uploads of a try-on (retention will)'),
    );
  }
}
