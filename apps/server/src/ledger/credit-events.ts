/**
 * The append-only `credit_events` log: every change the ledger makes writes one row here, in the
 * change's own transaction, and this process's listeners (metrics) are told of it.
 */
import type { CreditEventType } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import type { Trx } from './transaction.js';

/** Told of every credit event as it is written (metrics); see `onCreditEvent`. */
const creditEventListeners = new Set<(type: CreditEventType, amount: number) => void>();

/**
 * Calls `listener` with each credit event's type and amount as this process writes it. The event's
 * transaction has not committed yet: one rolled back afterwards (a rare failure) was still told.
 * Returns a function that stops the calls.
 */
export function onCreditEvent(listener: (type: CreditEventType, amount: number) => void): () => void {
  creditEventListeners.add(listener);
  return () => creditEventListeners.delete(listener);
}

/** Writes one credit event in `trx`, then tells the listeners. */
export async function addEvent(
  trx: Trx,
  e: {
    userId: string;
    type: CreditEventType;
    amount: number;
    grantId?: string | null;
    tryonId?: string | null;
    note?: string | null;
    /** The operator who made a manual change. */
    actorId?: string | null;
    now: Date;
  },
): Promise<void> {
  await trx
    .insertInto('credit_events')
    .values({
      id: newId(),
      user_id: e.userId,
      grant_id: e.grantId ?? null,
      tryon_id: e.tryonId ?? null,
      type: e.type,
      amount: e.amount,
      created_at: iso(e.now),
      note: e.note ?? null,
      actor_id: e.actorId ?? null,
    })
    .execute();
  for (const listener of creditEventListeners) listener(e.type, e.amount);
}
