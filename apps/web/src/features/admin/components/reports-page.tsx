import { useId, useState } from 'react';
import { Link } from 'react-router';
import { REPORT_STATUSES, type AdminReport, type ReportStatus } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { AlertIcon, CheckIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { decideReport } from '../api/decide-report';
import { getReports } from '../api/get-reports';
import { useAdminData } from '../hooks/use-admin-data';
import { formatDateTime } from '../utils/format';
import { Badge, ErrorNote, inputClass, Loading } from './admin-ui';
import { ResultPreview } from './result-preview';

const REASON_TEXT: Record<AdminReport['reason'], string> = {
  wrong_garment: 'Wrong garment',
  body_or_face_changed: 'Body or face changed',
  badly_placed: 'Garment badly placed',
  other: 'Other',
};
const STATUS_TEXT: Record<ReportStatus, string> = { pending: 'Pending', refunded: 'Refunded', rejected: 'Rejected' };
/** The API keeps a note with every decision; these stand in when the operator writes none. */
const DEFAULT_NOTE = { refund: 'Refunded from the report queue', reject: 'Rejected from the report queue' } as const;

function ReportCard({ report, onDecided }: { report: AdminReport; onDecided: (r: AdminReport) => void }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<'refund' | 'reject' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const noteId = useId();
  const titleId = useId();
  const who = report.user.email ?? report.user.id;

  const decide = async (decision: 'refund' | 'reject') => {
    setBusy(decision);
    setError(null);
    try {
      onDecided(await decideReport(report.id, { decision, note: note.trim() || DEFAULT_NOTE[decision] }));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not reach the server.');
      setBusy(null);
    }
  };

  return (
    <li
      className="grid gap-4 rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_auto] sm:p-5"
      aria-labelledby={titleId}
      data-testid="report-item"
    >
      <div className="min-w-0 space-y-2">
        <h3 id={titleId} className="font-bold text-ink-950">
          {REASON_TEXT[report.reason]}
          <span className="sr-only"> reported by {who}</span>
        </h3>
        <p className="text-sm break-words text-ink-700">
          <Link
            to={`/admin/users/${encodeURIComponent(report.user.id)}`}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            {who}
          </Link>
          {` · ${formatDateTime(report.created_at)} · ${report.units === 1 ? '1 unit' : `${report.units} units`}`}
          {report.engine ? ` · ${report.engine}` : ''}
          {report.category ? ` · ${report.category}` : ''}
        </p>
        {report.note ? (
          <blockquote className="rounded-xl bg-ink-50 px-3 py-2 text-sm break-words text-ink-800">
            “{report.note}”
          </blockquote>
        ) : (
          <p className="text-sm text-ink-500">No note from the shopper.</p>
        )}
        {report.status === 'pending' ? (
          <div className="pt-1">
            <label htmlFor={noteId} className="text-sm font-semibold text-ink-900">
              Note for the audit log (optional)
            </label>
            <input
              id={noteId}
              type="text"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={500}
              className={`${inputClass} mt-1`}
            />
            {error ? (
              <p role="alert" className="mt-2 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
                <AlertIcon className="mt-0.5 size-4 shrink-0" />
                {error}
              </p>
            ) : null}
            <div className="mt-3 flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => void decide('refund')}
                disabled={busy !== null}
                data-testid="report-refund"
              >
                {busy === 'refund' ? 'Refunding…' : 'Refund'}
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => void decide('reject')}
                disabled={busy !== null}
                data-testid="report-reject"
              >
                {busy === 'reject' ? 'Rejecting…' : 'Reject'}
              </Button>
            </div>
          </div>
        ) : (
          <p className="text-sm text-ink-700">
            <Badge tone={report.status === 'refunded' ? 'good' : 'neutral'}>{STATUS_TEXT[report.status]}</Badge>{' '}
            {formatDateTime(report.decided_at)} by {report.decided_by?.email ?? 'automatic refund'}
            {report.decision_note ? ` · ${report.decision_note}` : ''}
          </p>
        )}
      </div>
      <div className="sm:w-48">
        <ResultPreview url={report.result_url} label={`the result reported by ${who}`} />
      </div>
    </li>
  );
}

/** Reports: the pending queue (oldest first), each refunded or rejected in one click; decided ones to look back. */
export function ReportsPage() {
  const [status, setStatus] = useState<ReportStatus>('pending');
  const reports = useAdminData(`reports:${status}`, (signal) => getReports(status, signal));
  const [announcement, setAnnouncement] = useState('');
  const statusId = useId();
  const items = reports.data;

  const onDecided = (r: AdminReport) => {
    reports.setData((list) => list.filter((x) => x.id !== r.id));
    setAnnouncement(
      `${r.status === 'refunded' ? 'Refunded' : 'Rejected'}: ${REASON_TEXT[r.reason]} reported by ${r.user.email ?? r.user.id}.`,
    );
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-2xl font-extrabold tracking-tight text-ink-950">Reports</h2>
        <div className="flex items-center gap-2">
          <label htmlFor={statusId} className="text-sm font-semibold text-ink-700">
            Show
          </label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => setStatus(e.target.value as ReportStatus)}
            className={`${inputClass} w-auto`}
          >
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === 'pending' ? 'Pending (the queue)' : STATUS_TEXT[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p
        role="status"
        className={
          announcement
            ? 'flex items-center gap-2 rounded-2xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800'
            : 'sr-only'
        }
        data-testid="reports-status"
      >
        {announcement ? <CheckIcon className="size-4 shrink-0" /> : null}
        {announcement}
      </p>
      {reports.error ? <ErrorNote message={reports.error} onRetry={reports.reload} /> : null}
      {!items && reports.loading ? <Loading label="Loading the reports…" /> : null}
      {items ? (
        items.length === 0 ? (
          <p
            className="rounded-3xl border-2 border-dashed border-ink-200 bg-white px-6 py-12 text-center text-ink-600"
            data-testid="reports-empty"
          >
            {status === 'pending'
              ? 'The queue is empty: no report is waiting.'
              : `No ${STATUS_TEXT[status].toLowerCase()} reports.`}
          </p>
        ) : (
          <ul className="space-y-4" aria-label={`${STATUS_TEXT[status]} reports`}>
            {items.map((r) => (
              <ReportCard key={r.id} report={r} onDecided={onDecided} />
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
