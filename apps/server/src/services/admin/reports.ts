/**
 * Reports of bad results: a shopper reports one of their succeeded try-ons; their first
 * AUTO_REFUND_REPORTS reports in REPORT_WINDOW_DAYS are refunded at once through the ledger, later
 * ones wait for an operator, who refunds or rejects each once (audited).
 */
import type { Kysely } from 'kysely';
import {
  REPORT_WINDOW_DAYS,
  type AdminReport,
  type ReportReason,
  type ReportStatus,
  type ReportTryOnResponse,
} from '@aidressup/contract';
import type { Database, TryOnReportRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { balance, refundReportedTryOn, type ReportUnit } from '../../ledger/ledger.js';
import { emailsOf, tryOnUnits, tryOnsByIds } from '../../repositories/admin-users.js';
import { appendAudit } from '../../repositories/audit.js';
import {
  countReportsSince,
  decideReport as decideReportRow,
  findReport,
  findReportOfTryOn,
  insertReport,
  listReports,
  lockReportingUser,
} from '../../repositories/reports.js';
import { adminResultUrl, type AdminDeps } from './users.js';
import type { Operator } from './operators.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function unitsOf(report: TryOnReportRow): ReportUnit[] {
  return JSON.parse(report.units) as ReportUnit[];
}

/**
 * A shopper reports one of their try-ons. Another user's or an unknown try-on is NOT_FOUND; one
 * not succeeded NOT_REPORTABLE; a second report ALREADY_REPORTED. Counting the user's reports and
 * recording this one happen under the user's lock, so the allowance holds under concurrency.
 */
export async function reportTryOn(
  deps: AdminDeps,
  userId: string,
  input: { tryonId: string; reason: ReportReason; note?: string | undefined },
): Promise<ReportTryOnResponse> {
  const now = deps.clock();
  return deps.db.transaction().execute(async (trx) => {
    await lockReportingUser(trx, userId);
    const units = await tryOnUnits(trx, input.tryonId);
    const main = units[0];
    if (!main || main.id !== input.tryonId || main.user_id !== userId || main.bundle_of !== null)
      throw new AppError('NOT_FOUND');
    if (main.status !== 'succeeded') throw new AppError('NOT_REPORTABLE');
    if (await findReportOfTryOn(trx, input.tryonId)) throw new AppError('ALREADY_REPORTED');
    const recent = await countReportsSince(trx, userId, new Date(now.getTime() - REPORT_WINDOW_DAYS * DAY_MS));
    const refundNow = recent < deps.config.admin.autoRefundReports;
    // Only the units still spent: one whose cost already came back is not the report's to give.
    const reportUnits: ReportUnit[] = units
      .filter((u) => u.status === 'succeeded' && u.refunded_at === null)
      .map((u) => ({ tryonId: u.id, charge: u.charge, grantId: u.grant_id }));
    const report = await insertReport(trx, {
      tryonId: input.tryonId,
      userId,
      reason: input.reason,
      note: input.note?.trim() ? input.note.trim() : null,
      status: refundNow ? 'refunded' : 'pending',
      units: reportUnits,
      now,
    });
    if (!report) throw new AppError('ALREADY_REPORTED');
    if (refundNow) {
      await refundReportedTryOn(trx, {
        userId,
        units: reportUnits,
        note: `report ${input.reason}: refunded at once`,
        actorId: null,
        now,
      });
    }
    return {
      success: true as const,
      status: refundNow ? ('refunded' as const) : ('pending' as const),
      creditsRemaining: await balance(trx, userId, now),
    };
  });
}

async function toAdminReports(db: Kysely<Database>, rows: TryOnReportRow[]): Promise<AdminReport[]> {
  const [emails, tryons] = await Promise.all([
    emailsOf(db, [...rows.map((r) => r.user_id), ...rows.flatMap((r) => (r.decided_by ? [r.decided_by] : []))]),
    tryOnsByIds(
      db,
      rows.map((r) => r.tryon_id),
    ),
  ]);
  return rows.map((r) => {
    const tryon = tryons.get(r.tryon_id);
    return {
      id: r.id,
      tryon_id: r.tryon_id,
      user: { id: r.user_id, email: emails.get(r.user_id) ?? null },
      reason: r.reason as ReportReason,
      note: r.note,
      status: r.status,
      units: unitsOf(r).length,
      created_at: r.created_at,
      decided_at: r.decided_at,
      decided_by: r.decided_by ? { id: r.decided_by, email: emails.get(r.decided_by) ?? null } : null,
      decision_note: r.decision_note,
      engine: tryon?.engine ?? null,
      category: tryon?.category ?? null,
      result_url: tryon && tryon.status === 'succeeded' && tryon.result_name ? adminResultUrl(tryon.id) : null,
    };
  });
}

/** Reports in one state: pending ones oldest first (the queue), decided ones newest first. */
export async function listAdminReports(deps: AdminDeps, status: ReportStatus, limit: number): Promise<AdminReport[]> {
  return toAdminReports(deps.db, await listReports(deps.db, status, limit));
}

/**
 * An operator refunds or rejects a pending report, once: the status changes by a guarded update in
 * the refund's transaction, so of concurrent decisions one wins and the others get REPORT_DECIDED.
 */
export async function decideReport(
  deps: AdminDeps,
  operator: Operator,
  input: { reportId: string; decision: 'refund' | 'reject'; note: string },
): Promise<AdminReport> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    const report = await findReport(trx, input.reportId);
    if (!report) throw new AppError('NOT_FOUND');
    if (report.status !== 'pending') throw new AppError('REPORT_DECIDED');
    const status = input.decision === 'refund' ? ('refunded' as const) : ('rejected' as const);
    if (!(await decideReportRow(trx, { id: report.id, status, by: operator.id, note: input.note, now })))
      throw new AppError('REPORT_DECIDED');
    let refunded = { credits: 0, freeTrials: 0 };
    if (status === 'refunded') {
      refunded = await refundReportedTryOn(trx, {
        userId: report.user_id,
        units: unitsOf(report),
        note: `report ${report.reason}: refunded by an operator`,
        actorId: operator.id,
        now,
      });
    }
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: `report.${input.decision}`,
      targetType: 'report',
      targetId: report.id,
      targetUserId: report.user_id,
      reason: input.note,
      before: { status: 'pending' },
      after: { status, credits_refunded: refunded.credits, free_trials_refunded: refunded.freeTrials },
      now,
    });
  });
  const row = await findReport(deps.db, input.reportId);
  const [report] = await toAdminReports(deps.db, row ? [row] : []);
  if (!report) throw new AppError('NOT_FOUND');
  return report;
}
