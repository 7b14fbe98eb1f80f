/**
 * The operator audit log (`audit_log`): append-only. Rows are inserted and read here, never
 * updated or deleted, with one exception: deleting an account blanks the personal data in the
 * rows about that person (or by that operator), keeping the rows themselves.
 */
import type { Kysely } from 'kysely';
import type { AuditLogRow, Database } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';

type Db = Kysely<Database>;

export interface AuditInput {
  actorId: string;
  actorEmail: string | null;
  action: string;
  targetType: 'user' | 'report' | 'tryon' | 'merchant';
  targetId: string;
  targetUserId: string | null;
  reason: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  now: Date;
}

/** Appends one row (in the caller's transaction, so an action and its audit row commit together). */
export async function appendAudit(db: Db, input: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      created_at: iso(input.now),
      actor_id: input.actorId,
      actor_email: input.actorEmail,
      action: input.action,
      target_type: input.targetType,
      target_id: input.targetId,
      target_user_id: input.targetUserId,
      reason: input.reason,
      before: input.before ? JSON.stringify(input.before) : null,
      after: input.after ? JSON.stringify(input.after) : null,
    })
    .execute();
}

export interface AuditCursor {
  createdAt: string;
  id: string;
}

/** Rows newest first; with `before`, those older than that cursor. */
export async function listAudit(db: Db, limit: number, before?: AuditCursor): Promise<AuditLogRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The text left where a deleted account's personal data was. */
export const REMOVED = '(removed: the account was deleted)';

/**
 * Account deletion: rows about the person keep what was done and the figures, but lose the
 * operator's free-text reason (it may describe the person); rows by the person (an operator who
 * deleted their account) lose the operator's email. The rows stay.
 */
export async function removePersonalDataFromAudit(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({ reason: REMOVED })
    .where('target_user_id', '=', userId)
    .where('reason', 'is not', null)
    .execute();
  await db.updateTable('audit_log').set({ actor_email: null }).where('actor_id', '=', userId).execute();
}
