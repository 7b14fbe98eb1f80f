/**
 * The Paddle webhook's own reads and writes: the `billing_events` record (one row per Paddle
 * event id, kept 7 years) and the look-ups it needs. Credits change only through the ledger;
 * the user's subscription fields through the users repository.
 */
import { sql, type Kysely } from 'kysely';
import type { CreditGrantRow, Database, UserRow } from '../../db/schema.js';
import { iso, newId } from '../../db/ids.js';

type Db = Kysely<Database>;

const PROVIDER = 'paddle';

export interface BillingEventInput {
  eventId: string;
  eventType: string;
  occurredAt: string | null;
  payload: string;
  now: Date;
}

/**
 * Records a Paddle event id. Returns the new row's id, or null when the event was recorded
 * before (a replay). Run inside the transaction that applies the event's effect: the unique
 * `event_id` then makes "recorded" and "applied" one and the same.
 */
export async function recordBillingEvent(db: Db, input: BillingEventInput): Promise<string | null> {
  const id = newId();
  const inserted = await db
    .insertInto('billing_events')
    .values({
      id,
      provider: PROVIDER,
      event_id: input.eventId,
      event_type: input.eventType,
      occurred_at: input.occurredAt,
      payload: input.payload,
      processed_at: null,
      created_at: iso(input.now),
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? inserted.id : null;
}

export async function markBillingEventProcessed(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('billing_events')
    .set({ processed_at: iso(now) })
    .where('id', '=', id)
    .execute();
}

export async function findUserBySubscriptionId(db: Db, subscriptionId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .orderBy('subscription_updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Grant references of one Paddle transaction: `txn_…` for its first item, `txn_…#2`, `#3` … for more. */
export function grantRef(transactionId: string, index: number): string {
  return index === 0 ? transactionId : `${transactionId}#${index + 1}`;
}

/** Every grant made for a Paddle transaction. */
export async function findGrantsForTransaction(db: Db, transactionId: string): Promise<CreditGrantRow[]> {
  return db
    .selectFrom('credit_grants')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('external_ref', '=', transactionId),
        // LIKE with an explicit escape character: `_` in Paddle ids must not act as a wildcard.
        sql<boolean>`external_ref like ${`${escapeLike(transactionId)}#%`} escape '\\'`,
      ]),
    )
    .orderBy('created_at')
    .execute();
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
