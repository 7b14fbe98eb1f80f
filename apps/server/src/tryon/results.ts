/**
 * Try-on results: stored under an unguessable name (32 random bytes), named on the row before the
 * file is written, and the row completed only while it is still `processing`.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EngineError } from '@aidressup/engine';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import { completeTryOn } from '../ledger/ledger.js';
import { untilDatabaseAnswers } from '../db/outage.js';
import { findTryOn, stageResult } from '../repositories/tryons.js';
import { EXTENSION_OF, cleanEngineOutput } from '../services/images.js';

/** Result names: 32 random bytes in base64url, then the extension. */
export const RESULT_NAME_PATTERN = /^[A-Za-z0-9_-]{43}\.(jpg|png|webp)$/;

export function newResultName(ext: string): string {
  return `${randomBytes(32).toString('base64url')}${ext}`;
}

/**
 * Stores an engine's output as the try-on's result and marks the row succeeded; with `maxSide`
 * (a free trial's result) reduced to at most that on its longest side. Throws
 * ENGINE_FAILED when the output is not an image, ENGINE_TIMEOUT when the deadline passed or the
 * row was settled elsewhere; the stored file is removed whenever the row was not completed.
 * While the database cannot be reached (restarting), recording the result waits for it.
 * Returns the result's name.
 */
export async function storeResult(
  deps: { db: Kysely<Database>; storage: Storage },
  tryonId: string,
  image: Uint8Array,
  signal: AbortSignal,
  now: Date,
  options: {
    maxSide?: number | undefined;
    /** The engine that made it and its cost (recorded on the row as it completes). */
    made?: { engine: string; costMicros: number } | undefined;
  } = {},
): Promise<string> {
  const clean = await cleanEngineOutput(image, options);
  if (!clean)
    throw new EngineError(
      'ENGINE_FAILED',
      undefined,
      'engine returned something that is not a JPEG, PNG or WEBP image',
    );
  if (signal.aborted) throw new EngineError('ENGINE_TIMEOUT');
  const name = newResultName(EXTENSION_OF[clean.mimeType]);
  const key = `results/${name}`;
  // Named on the row first: a crash after the file is stored still completes the try-on (recovery).
  if (!(await untilDatabaseAnswers(() => stageResult(deps.db, tryonId, name))))
    throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled elsewhere (past its deadline)');
  await deps.storage.put(key, clean.data, clean.mimeType);
  try {
    const completed = await untilDatabaseAnswers(async () => {
      if (await completeTryOn(deps.db, { tryonId, resultName: name, now, made: options.made })) return true;
      // A try that failed with the connection may have committed: then the row is ours already.
      const row = await findTryOn(deps.db, tryonId);
      return row?.status === 'succeeded' && row.result_name === name;
    });
    if (!completed)
      throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled elsewhere (past its deadline)');
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return name;
}
