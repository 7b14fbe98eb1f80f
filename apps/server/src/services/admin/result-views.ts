/**
 * An operator looking at a shopper's result (from a report or the user's page): allowed only for
 * a kept result, and written to the audit log before the image is sent. `view` false (a HEAD: no
 * image is sent) checks the same and writes nothing.
 */
import type { TryOnRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { findTryOn } from '../../repositories/tryons.js';
import { appendAudit } from '../../repositories/audit.js';
import type { AdminDeps } from './users.js';
import type { Operator } from './operators.js';

export async function viewResultAsOperator(
  deps: AdminDeps,
  operator: Operator,
  tryonId: string,
  { view = true }: { view?: boolean } = {},
): Promise<TryOnRow & { result_name: string }> {
  const now = deps.clock();
  const row = await findTryOn(deps.db, tryonId);
  if (!row || row.status !== 'succeeded' || !row.result_name || row.expires_at <= now.toISOString())
    throw new AppError('NOT_FOUND');
  if (!view) return { ...row, result_name: row.result_name };
  await appendAudit(deps.db, {
    actorId: operator.id,
    actorEmail: operator.email,
    action: 'result.view',
    targetType: 'tryon',
    targetId: row.id,
    targetUserId: row.user_id,
    reason: null,
    now,
  });
  return { ...row, result_name: row.result_name };
}
