/**
 * Retention's deletions of transaction records (credit events, try-ons, grants, billing events)
 * older than a cutoff. Each deletes at most `limit` rows (retention repeats it in batches) and
 * returns how many it deleted; rows something still refers to are kept.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** Credit events created before `cutoff` (an ISO timestamp). */
export async function deleteCreditEventsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('credit_events')
    .where('id', 'in', db.selectFrom('credit_events').select('id').where('created_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Try-ons created before `cutoff` that are no longer processing and no credit event refers to. */
export async function deleteTryonsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('tryons')
    .where(
      'id',
      'in',
      db
        .selectFrom('tryons')
        .select('id')
        .where('created_at', '<', cutoff)
        .where('status', '!=', 'processing')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('credit_events').select('id').whereRef('credit_events.tryon_id', '=', 'tryons.id'))),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Grants created before `cutoff` that are spent or expired before it, and that no credit event
 * or try-on refers to.
 */
export async function deleteGrantsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('credit_grants')
    .where(
      'id',
      'in',
      db
        .selectFrom('credit_grants')
        .select('id')
        .where('created_at', '<', cutoff)
        .where((eb) =>
          eb.or([eb('remaining', '=', 0), eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<', cutoff)])]),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('credit_events').select('id').whereRef('credit_events.grant_id', '=', 'credit_grants.id'),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('tryons').select('id').whereRef('tryons.grant_id', '=', 'credit_grants.id'))),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Billing (webhook) events received before `cutoff`. */
export async function deleteBillingEventsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('billing_events')
    .where('id', 'in', db.selectFrom('billing_events').select('id').where('created_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
