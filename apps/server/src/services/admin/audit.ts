/** The audit log as the console shows it: pages newest first by an opaque cursor. */
import type { Kysely } from 'kysely';
import type { AdminAuditEntry } from '@aidressup/contract';
import type { AuditLogRow, Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { listAudit, type AuditCursor } from '../../repositories/audit.js';

const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([A-Za-z0-9_-]{1,64})$/;

function encodeCursor(c: AuditCursor): string {
  return Buffer.from(`${c.createdAt}|${c.id}`, 'utf8').toString('base64url');
}

function decodeCursor(text: string): AuditCursor {
  const m = CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!m || encodeCursor({ createdAt: m[1]!, id: m[2]! }) !== text) throw new AppError('VALIDATION_ERROR');
  return { createdAt: m[1]!, id: m[2]! };
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function toAuditEntry(row: AuditLogRow): AdminAuditEntry {
  return {
    id: row.id,
    created_at: row.created_at,
    actor: { id: row.actor_id, email: row.actor_email },
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    target_user_id: row.target_user_id,
    reason: row.reason,
    before: parseJson(row.before),
    after: parseJson(row.after),
  };
}

export async function auditPage(
  db: Kysely<Database>,
  page: { limit: number; before?: string | undefined },
): Promise<{ items: AdminAuditEntry[]; nextCursor: string | null }> {
  const before = page.before === undefined ? undefined : decodeCursor(page.before);
  const rows = await listAudit(db, page.limit + 1, before);
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(toAuditEntry),
    nextCursor: rows.length > page.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}
