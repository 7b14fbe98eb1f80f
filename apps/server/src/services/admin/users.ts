/**
 * The operator console's user work: search, a user's page (ledger, try-ons, payments, sessions),
 * adding or taking back credits through the ledger, blocking and unblocking. Every change is
 * written to the audit log in its own transaction, with the operator's reason.
 */
import type { Kysely } from 'kysely';
import type { AdminLedgerEntry, AdminTryOn, AdminUser, AdminUserDetail, Category } from '@aidressup/contract';
import type { Config } from '../../config.js';
import type { Database, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { adjustCredits } from '../../ledger/ledger.js';
import {
  billingEventsNaming,
  creditEventsOfUser,
  findShopperUser,
  grantsOfUser,
  searchUsers,
  setUserBlocked,
  tryOnsOfUser,
} from '../../repositories/admin-users.js';
import { sessionSummary } from '../../repositories/admin-sessions.js';
import { deleteUserSessions } from '../../repositories/sessions.js';
import { appendAudit } from '../../repositories/audit.js';
import { reportsOfTryOns } from '../../repositories/reports.js';
import { toApiUser } from '../users.js';
import type { Operator } from './operators.js';

export interface AdminDeps {
  db: Kysely<Database>;
  config: Config;
  clock: () => Date;
}

/** Users found by a search, at most this many. */
const SEARCH_LIMIT = 50;

/** Free-trial movements; every other credit event counts credits. */
const TRIAL_EVENTS = new Set(['trial_spend', 'trial_refund']);

/** Where an operator sees a result image (each view is audited). */
export function adminResultUrl(tryonId: string): string {
  return `/api/admin/tryons/${tryonId}/result`;
}

async function toAdminUser(deps: AdminDeps, row: UserRow): Promise<AdminUser> {
  const user = await toApiUser(deps.db, row, { freeTrialsLimit: deps.config.freeTrialsLimit, now: deps.clock() });
  return {
    id: user.id,
    email: user.email ?? null,
    credits: user.credits,
    free_trials_used: user.free_trials_used,
    free_trials_limit: user.free_trials_limit,
    segment: user.segment,
    created_at: user.created_at,
    blocked: row.blocked_at !== null,
  };
}

/** Users whose email contains the query, whose id starts with it, or whose device id it is. */
export async function searchAdminUsers(deps: AdminDeps, query: string): Promise<AdminUser[]> {
  const rows = await searchUsers(deps.db, query, SEARCH_LIMIT);
  return Promise.all(rows.map((row) => toAdminUser(deps, row)));
}

/** A shopper by id; NOT_FOUND for an unknown id and for a merchant's ledger account (the merchant routes own it). */
async function userOrNotFound(db: Kysely<Database>, id: string): Promise<UserRow> {
  const row = await findShopperUser(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A user's page: the user, every credit movement, try-ons with their reports, payments, sessions. */
export async function adminUserDetail(deps: AdminDeps, id: string): Promise<AdminUserDetail> {
  const row = await userOrNotFound(deps.db, id);
  const now = deps.clock();
  const [user, events, tryons, grants, sessions] = await Promise.all([
    toAdminUser(deps, row),
    creditEventsOfUser(deps.db, id),
    tryOnsOfUser(deps.db, id),
    grantsOfUser(deps.db, id),
    sessionSummary(deps.db, id, now),
  ]);
  const [reports, billingEvents] = await Promise.all([
    reportsOfTryOns(
      deps.db,
      tryons.map((t) => t.id),
    ),
    billingEventsNaming(deps.db, [
      ...grants.filter((g) => g.source === 'paddle' && g.external_ref).map((g) => g.external_ref!),
      ...(row.subscription_id ? [row.subscription_id] : []),
      ...(row.paddle_customer_id ? [row.paddle_customer_id] : []),
    ]),
  ]);

  let credits = 0;
  const ledger: AdminLedgerEntry[] = events.map((e) => {
    const unit = TRIAL_EVENTS.has(e.type) ? ('free_trial' as const) : ('credit' as const);
    if (unit === 'credit') credits += e.amount;
    return {
      id: e.id,
      kind: e.type,
      unit,
      amount: e.amount,
      balance_after: credits,
      reason: e.note,
      created_at: e.created_at,
      tryon_id: e.tryon_id,
      grant_id: e.grant_id,
      actor: e.actor_id ? { id: e.actor_id, email: e.actor_email } : null,
    };
  });

  const items: AdminTryOn[] = tryons.map((t) => {
    const report = reports.get(t.id);
    const duration = t.finished_at === null ? null : Math.max(0, Date.parse(t.finished_at) - Date.parse(t.created_at));
    return {
      id: t.id,
      engine: t.engine,
      category: t.category as Category,
      status: t.status,
      units: t.units,
      charge: t.charge,
      created_at: t.created_at,
      finished_at: t.finished_at,
      duration_ms: duration,
      error_code: t.error_code,
      result_url: t.status === 'succeeded' && t.result_name ? adminResultUrl(t.id) : null,
      report: report
        ? {
            id: report.id,
            status: report.status,
            reason: report.reason as NonNullable<AdminTryOn['report']>['reason'],
            note: report.note,
            created_at: report.created_at,
          }
        : null,
    };
  });

  return {
    ...user,
    blocked_at: row.blocked_at,
    deleted_at: row.deleted_at,
    merged_into: row.merged_into,
    device_id: row.device_id,
    subscription: row.subscription_id
      ? {
          plan_id: row.subscription_plan_id,
          status: row.subscription_status,
          period_end: row.subscription_period_end,
        }
      : null,
    ledger,
    tryons: items,
    payments: {
      grants: grants.map((g) => ({
        id: g.id,
        source: g.source,
        plan_id: g.plan_id,
        amount: g.amount,
        remaining: g.remaining,
        amount_paid: g.amount_paid,
        currency: g.currency,
        external_ref: g.external_ref,
        created_at: g.created_at,
        expires_at: g.expires_at,
      })),
      billing_events: billingEvents.map((b) => ({
        id: b.id,
        provider: b.provider,
        event_id: b.event_id,
        event_type: b.event_type,
        occurred_at: b.occurred_at,
        processed_at: b.processed_at,
        created_at: b.created_at,
      })),
    },
    sessions: { count: sessions.count, last_seen_at: sessions.lastSeenAt },
  };
}

/**
 * Adds credits (positive) or takes them back (negative, never below zero) through the ledger, with
 * the reason on the ledger's events and an audit row holding the balance before and after.
 */
export async function adjustUserCredits(
  deps: AdminDeps,
  operator: Operator,
  input: { userId: string; amount: number; reason: string },
): Promise<AdminUser> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    const row = await userOrNotFound(trx, input.userId);
    if (row.deleted_at !== null || row.merged_into !== null) throw new AppError('NOT_FOUND');
    const result = await adjustCredits(trx, {
      userId: input.userId,
      amount: input.amount,
      reason: input.reason,
      actorId: operator.id,
      now,
    });
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: input.amount > 0 ? 'credits.add' : 'credits.remove',
      targetType: 'user',
      targetId: input.userId,
      targetUserId: input.userId,
      reason: input.reason,
      before: { credits: result.before },
      after: { credits: result.after, requested: input.amount, changed: result.changed },
      now,
    });
  });
  return toAdminUser(deps, await userOrNotFound(deps.db, input.userId));
}

/**
 * Blocks an account: from now on every request of its sessions is refused with ACCOUNT_BLOCKED
 * (the `blocked` plugin) and email sign-in into it is refused too. Refunds nothing. Blocking a
 * blocked account changes nothing and writes no audit row.
 */
export async function blockUser(
  deps: AdminDeps,
  operator: Operator,
  input: { userId: string; reason: string },
): Promise<AdminUser> {
  if (input.userId === operator.id) throw new AppError('FORBIDDEN', 'An operator cannot block their own account.');
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    await userOrNotFound(trx, input.userId);
    if (!(await setUserBlocked(trx, input.userId, now))) return;
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: 'user.block',
      targetType: 'user',
      targetId: input.userId,
      targetUserId: input.userId,
      reason: input.reason,
      before: { blocked: false },
      after: { blocked: true },
      now,
    });
  });
  return toAdminUser(deps, await userOrNotFound(deps.db, input.userId));
}

/**
 * Unblocks an account. The sessions it had when blocked stay ended: they are deleted, so the
 * person signs in again.
 */
export async function unblockUser(
  deps: AdminDeps,
  operator: Operator,
  input: { userId: string; reason: string },
): Promise<AdminUser> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    await userOrNotFound(trx, input.userId);
    if (!(await setUserBlocked(trx, input.userId, null))) return;
    const ended = await deleteUserSessions(trx, input.userId);
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: 'user.unblock',
      targetType: 'user',
      targetId: input.userId,
      targetUserId: input.userId,
      reason: input.reason,
      before: { blocked: true },
      after: { blocked: false, sessions_ended: ended },
      now,
    });
  });
  return toAdminUser(deps, await userOrNotFound(deps.db, input.userId));
}
