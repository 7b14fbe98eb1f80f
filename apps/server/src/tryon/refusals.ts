/**
 * The answers of a try-on refused before anything is charged: no credits (with the user, for the
 * paywall), the engine busy (with the place in line), too many places held by this client.
 */
import { AppError } from '../errors.js';
import { findUserById } from '../repositories/users.js';
import { toApiUser } from '../services/users.js';
import type { JoinResult, LineBusy } from './line/admission.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';

/** NO_CREDITS, with the user as the page needs it. */
export async function noCreditsError(
  deps: { db: Kysely<Database>; config: Pick<Config, 'freeTrialsLimit'>; clock: () => Date },
  userId: string,
): Promise<AppError> {
  const row = await findUserById(deps.db, userId);
  if (!row) return new AppError('UNAUTHORIZED');
  const user = await toApiUser(deps.db, row, { freeTrialsLimit: deps.config.freeTrialsLimit, now: deps.clock() });
  return new AppError('NO_CREDITS', undefined, { user });
}

/** ENGINE_BUSY (503) with the shopper's place, expected wait, Retry-After and ticket. Nothing was charged. */
export function engineBusyError(busy: LineBusy): AppError {
  return new AppError('ENGINE_BUSY', undefined, {
    place: busy.place,
    waitSeconds: busy.waitSeconds,
    retryAfterSeconds: busy.retryAfterSeconds,
    ...(busy.ticket ? { ticket: busy.ticket } : {}),
  });
}

/**
 * A join the line refused: past the shopper's or the address's bound of places, 429
 * TOO_MANY_REQUESTS with Retry-After (a limit on that client); else the line is full, 503
 * ENGINE_BUSY (the engine's own capacity).
 */
export function lineRefusal(refused: Extract<JoinResult, { ok: false }>): AppError {
  if (!refused.limit) return engineBusyError(refused.busy);
  return new AppError('TOO_MANY_REQUESTS', undefined, { retryAfterSeconds: refused.busy.retryAfterSeconds });
}
