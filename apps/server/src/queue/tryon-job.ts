/**
 * One queued try-on (DESIGN §2 "job execution", §8): what the API puts on the queue and what a
 * worker does with it. The tryons row is the single source of truth: completing and refunding
 * are both guarded updates from `processing`, so whichever side settles first wins and the
 * other changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Category } from '@aidressup/contract';
import { EngineError, isEngineError } from '@aidressup/engine';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import { refundTryOn } from '../ledger/ledger.js';
import { claimTryOn, findTryOn } from '../repositories/tryons.js';
import { EXTENSION_OF, type NormalisedImage } from '../services/images.js';
import { raceDeadline, storeResult } from '../services/tryon.js';

export const TRYON_QUEUE_NAME = 'tryon';

/** The job payload: references only, the photos themselves stay in storage. */
export interface TryOnJobData {
  tryonId: string;
  userId: string;
  personKey: string;
  garmentKey: string;
  category: Category;
  engine: string;
  /** When the try-on's deadline passes (epoch milliseconds); the worker stops there. */
  deadlineAt: number;
}

/** What a job returns to the waiting API process. */
export type TryOnJobResult =
  | { ok: true; resultName: string }
  | { ok: false; code: EngineError['code']; message: string };

/** Upload keys: `uploads/` + 32 random bytes in base64url + the extension. */
export function newUploadKey(image: NormalisedImage): string {
  return `uploads/${randomBytes(32).toString('base64url')}${EXTENSION_OF[image.mimeType]}`;
}

export async function deleteUploads(storage: Storage, data: Pick<TryOnJobData, 'personKey' | 'garmentKey'>): Promise<void> {
  await Promise.all([storage.delete(data.personKey), storage.delete(data.garmentKey)]);
}

export interface TryOnJobDeps {
  db: Kysely<Database>;
  storage: Storage;
  engines: EngineRegistry;
  clock?: () => Date;
  log?: { warn(obj: object, msg: string): void };
  /** This worker's process id: it takes ownership of the try-on before running it (crash recovery). */
  ownerId?: string;
}

/**
 * Runs one queued try-on to the end: engine under the deadline, result stored, row completed —
 * or refunded on failure. The two uploads are deleted whatever happens.
 */
export async function processTryOnJob(deps: TryOnJobDeps, data: TryOnJobData): Promise<TryOnJobResult> {
  const now = deps.clock ?? (() => new Date());
  try {
    // Take the try-on over (its owner is now this worker); settled already (the API gave up
    // waiting and refunded, or recovery settled it): nothing to do.
    const taken = deps.ownerId ? await claimTryOn(deps.db, data.tryonId, deps.ownerId) : (await findTryOn(deps.db, data.tryonId))?.status === 'processing';
    if (!taken) throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled before the job ran');
    const signal = AbortSignal.timeout(Math.max(0, data.deadlineAt - Date.now()));
    if (signal.aborted) throw new EngineError('ENGINE_TIMEOUT');
    const [person, garment] = await Promise.all([deps.storage.get(data.personKey), deps.storage.get(data.garmentKey)]);
    if (!person || !garment) throw new EngineError('ENGINE_TIMEOUT', undefined, 'uploads are gone (the try-on ended elsewhere)');
    const engine = await deps.engines.get(data.engine);
    const output = await raceDeadline(
      engine.tryOn({ person: person.body, garment: garment.body, category: data.category, signal }),
      signal,
    );
    const name = await storeResult(deps, data.tryonId, output.image, signal, now());
    return { ok: true, resultName: name };
  } catch (err) {
    const engineErr = isEngineError(err) ? err : new EngineError('ENGINE_FAILED', undefined, (err as Error)?.message);
    const refunded = await refundTryOn(deps.db, { tryonId: data.tryonId, errorCode: engineErr.code, now: now() });
    deps.log?.warn(
      { tryonId: data.tryonId, engine: data.engine, code: engineErr.code, detail: engineErr.detail ?? (err as Error)?.message, refunded },
      'queued try-on failed',
    );
    return { ok: false, code: engineErr.code, message: engineErr.message };
  } finally {
    await deleteUploads(deps.storage, data).catch((err: unknown) =>
      deps.log?.warn({ err, tryonId: data.tryonId }, 'could not delete the uploads of a try-on (retention will)'),
    );
  }
}
