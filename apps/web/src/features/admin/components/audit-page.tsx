import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AdminAuditEntry } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { getAudit } from '../api/get-audit';
import { useAdminAccessHandler } from '../hooks/use-admin-access';
import { formatDateTime } from '../utils/format';
import { ErrorNote, inputClass, Loading, Panel, TableScroll, tdClass, thClass } from './admin-ui';

const KNOWN_ACTIONS = [
  'credits.add',
  'credits.remove',
  'user.block',
  'user.unblock',
  'report.refund',
  'report.reject',
  'result.view',
];

const actorName = (e: AdminAuditEntry) => e.actor.email ?? e.actor.id ?? 'system';

/** What changed, in a few words (the before/after objects as key: value). */
function change(e: AdminAuditEntry): string {
  const show = (o: Record<string, unknown> | null) =>
    o
      ? Object.entries(o)
          .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
          .join(', ')
      : '';
  const before = show(e.before);
  const after = show(e.after);
  return before && after ? `${before} → ${after}` : before || after || '–';
}

/** The audit log, newest first, page after page; filtered by operator and action over the pages loaded. */
export function AuditPage() {
  const onAccessError = useAdminAccessHandler();
  const [entries, setEntries] = useState<AdminAuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const actorId = useId();
  const actionId = useId();
  const ctrlRef = useRef<AbortController | null>(null);

  const load = useCallback(
    (before: string | null) => {
      ctrlRef.current?.abort();
      const ctrl = new AbortController();
      ctrlRef.current = ctrl;
      setLoading(true);
      setError(null);
      getAudit(before, ctrl.signal).then(
        (page) => {
          if (ctrl.signal.aborted) return;
          setEntries((list) => (before ? [...(list ?? []), ...page.items] : page.items));
          setCursor(page.nextCursor);
          setLoading(false);
        },
        (e: unknown) => {
          if (ctrl.signal.aborted || onAccessError(e)) return;
          setError(e instanceof ApiError ? e.message : 'Could not reach the server.');
          setLoading(false);
        },
      );
    },
    [onAccessError],
  );

  useEffect(() => {
    load(null);
    return () => ctrlRef.current?.abort();
  }, [load]);

  const actors = useMemo(() => [...new Set((entries ?? []).map(actorName))].sort(), [entries]);
  const actions = useMemo(
    () => [...new Set([...KNOWN_ACTIONS, ...(entries ?? []).map((e) => e.action)])].sort(),
    [entries],
  );
  const shown = (entries ?? []).filter((e) => (!actor || actorName(e) === actor) && (!action || e.action === action));

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-extrabold tracking-tight text-ink-950">Audit log</h2>
      <div className="flex flex-wrap gap-4">
        <div>
          <label htmlFor={actorId} className="text-sm font-semibold text-ink-900">
            Operator
          </label>
          <select
            id={actorId}
            value={actor}
            onChange={(e) => setActor(e.target.value)}
            className={`${inputClass} mt-1 w-auto`}
            data-testid="audit-actor"
          >
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={actionId} className="text-sm font-semibold text-ink-900">
            Action
          </label>
          <select
            id={actionId}
            value={action}
            onChange={(e) => setAction(e.target.value)}
            className={`${inputClass} mt-1 w-auto`}
            data-testid="audit-action"
          >
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error ? <ErrorNote message={error} onRetry={() => load(entries ? cursor : null)} /> : null}
      {entries === null && loading ? <Loading label="Loading the audit log…" /> : null}
      {entries ? (
        <Panel
          title={
            <span aria-live="polite">
              {shown.length} of {entries.length} entries loaded
            </span>
          }
        >
          {shown.length === 0 ? (
            <p className="text-sm text-ink-500">
              No entry matches{cursor ? ' among those loaded; load more to look further back' : ''}.
            </p>
          ) : (
            <TableScroll label="Audit log">
              <table className="w-full" data-testid="audit-table">
                <thead>
                  <tr className="border-b border-ink-200">
                    {['When', 'Operator', 'Action', 'Target', 'Reason', 'Change'].map((h) => (
                      <th key={h} scope="col" className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((e) => (
                    <tr key={e.id} className="border-b border-ink-100" data-testid="audit-row">
                      <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(e.created_at)}</td>
                      <td className={tdClass}>{actorName(e)}</td>
                      <td className={`${tdClass} font-mono text-xs whitespace-nowrap`}>{e.action}</td>
                      <td className={tdClass}>
                        {e.target_type}
                        {e.target_user_id ? (
                          <Link
                            to={`/admin/users/${encodeURIComponent(e.target_user_id)}`}
                            className="block font-mono text-xs text-brand-700 underline-offset-4 hover:underline"
                          >
                            {e.target_user_id}
                          </Link>
                        ) : (
                          <span className="block font-mono text-xs text-ink-500">{e.target_id}</span>
                        )}
                      </td>
                      <td className={`${tdClass} max-w-64 break-words`}>{e.reason ?? '–'}</td>
                      <td className={`${tdClass} max-w-72 text-xs break-words text-ink-600`}>{change(e)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {cursor ? (
            <div className="mt-4 flex justify-center">
              <button
                type="button"
                onClick={() => load(cursor)}
                disabled={loading}
                className={buttonClasses('secondary', 'md')}
                data-testid="audit-more"
              >
                {loading ? <Spinner className="size-4 text-brand-600" /> : null}
                {loading ? 'Loading…' : 'Load older entries'}
              </button>
            </div>
          ) : null}
        </Panel>
      ) : null}
    </div>
  );
}
