import { useId, useState, type FormEvent } from 'react';
import {
  REPORT_REASONS,
  WEB_MESSAGES,
  type ReportReason,
  type ReportTryOnResponse,
  type User,
} from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, CheckIcon, ClockIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT, type MessageId } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { reportTryOn } from '../api/report-tryon';

const REASON_IDS: Record<ReportReason, MessageId> = {
  wrong_garment: 'report.reason.wrong_garment',
  body_or_face_changed: 'report.reason.body_or_face_changed',
  badly_placed: 'report.reason.badly_placed',
  other: 'report.reason.other',
};

/** What the shopper is told once the report is in. */
type Outcome = { status: 'pending' } | { status: 'refunded'; unit: 'credit' | 'free_trial'; credits: number };

export interface ReportDialogProps {
  /** The try-on reported (the page mounts one dialog per result, keyed by its id). */
  tryOnId: string;
  /** The signed-in shopper before the report (to tell a credit from a free trial given back). */
  user: User | null;
  onClose: () => void;
  /** The server took the report (refunded at once, or pending). */
  onReported: (response: ReportTryOnResponse, reason: ReportReason) => void;
  /** Re-reads the session's user from the server, so the balance shown is the new one. */
  refreshUser: () => Promise<User | null>;
  /** For tests: the call. */
  report?: typeof reportTryOn;
}

/** "Report a problem": a reason, an optional note, then what happens (given back, or an operator will look). */
export function ReportDialog({
  tryOnId,
  user,
  onClose,
  onReported,
  refreshUser,
  report = reportTryOn,
}: ReportDialogProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code?: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const noteId = useId();
  const errorId = useId();
  const legendId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason || busy) return;
    setBusy(true);
    setError(null);
    try {
      const trimmed = note.trim();
      const res = await report(tryOnId, { reason, ...(trimmed ? { note: trimmed } : {}) });
      onReported(res, reason);
      if (res.status === 'refunded') {
        const fresh = await refreshUser();
        const trialBack = !!user && !!fresh && fresh.free_trials_used < user.free_trials_used;
        setOutcome({
          status: 'refunded',
          unit: trialBack ? 'free_trial' : 'credit',
          credits: fresh?.credits ?? res.creditsRemaining,
        });
      } else setOutcome({ status: 'pending' });
    } catch (err) {
      setError(
        err instanceof ApiError ? { message: err.message, code: err.code } : { message: WEB_MESSAGES.reportFailed },
      );
    } finally {
      setBusy(false);
    }
  };

  if (outcome) {
    return (
      <Dialog
        open
        onClose={onClose}
        title={outcome.status === 'refunded' ? t('report.refundedTitle') : t('report.pendingTitle')}
        className="max-w-md"
        testId="report-dialog"
        focusKey="outcome"
      >
        <div
          role="status"
          className="mt-4 flex items-start gap-3"
          data-testid="report-outcome"
          data-status={outcome.status}
        >
          <span
            className={
              outcome.status === 'refunded'
                ? 'grid size-10 shrink-0 place-items-center rounded-full bg-emerald-100 text-emerald-700'
                : 'grid size-10 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700'
            }
          >
            {outcome.status === 'refunded' ? <CheckIcon className="size-5" /> : <ClockIcon className="size-5" />}
          </span>
          <p className="text-ink-700">
            {outcome.status === 'pending'
              ? t('report.pendingText')
              : outcome.unit === 'free_trial'
                ? t('report.refundedTrial')
                : t('report.refundedCredit', { credits: outcome.credits })}
          </p>
        </div>
        <div className="mt-6 flex justify-end">
          <Button onClick={onClose} data-autofocus>
            {t('report.done')}
          </Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={t('report.title')}
      description={t('report.description')}
      className="max-w-md"
      testId="report-dialog"
    >
      <form className="mt-5" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset aria-labelledby={legendId}>
          <legend id={legendId} className="text-sm font-semibold text-ink-900">
            {t('report.reasonLegend')}
          </legend>
          <div className="mt-2 grid gap-2">
            {REPORT_REASONS.map((r, i) => (
              <label
                key={r}
                className="flex cursor-pointer items-center gap-3 rounded-xl border border-ink-200 px-4 py-3 text-sm text-ink-800 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-brand-500/40"
              >
                <input
                  type="radio"
                  name="reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => setReason(r)}
                  className="size-4 accent-brand-600"
                  data-autofocus={i === 0 ? true : undefined}
                />
                {t(REASON_IDS[r])}
              </label>
            ))}
          </div>
        </fieldset>
        <label htmlFor={noteId} className="mt-5 block text-sm font-semibold text-ink-900">
          {t('report.note')}
        </label>
        <textarea
          id={noteId}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={1000}
          rows={3}
          className="mt-1.5 block w-full rounded-xl border border-ink-300 bg-white px-4 py-3 text-base text-ink-950 shadow-sm focus:border-brand-500 focus:outline-3 focus:outline-brand-500/30"
        />
        {error ? (
          <p
            id={errorId}
            role="alert"
            className="mt-4 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800"
          >
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {localize(error.message, error.code)}
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('report.cancel')}
          </Button>
          <Button type="submit" disabled={busy || !reason} data-testid="report-submit">
            {busy ? <Spinner className="size-4" /> : null}
            {busy ? t('report.sending') : t('report.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
