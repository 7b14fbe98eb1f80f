import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { inputClass } from './admin-ui';

export interface ReasonDialogProps {
  title: string;
  description: string;
  confirmLabel: string;
  /** Ask for a number of credits too (adding or removing). */
  withAmount?: boolean;
  /** Ask for a text too (a merchant's origins), starting from `initial`. */
  withText?: { label: string; initial: string } | undefined;
  destructive?: boolean;
  onClose: () => void;
  /** Does the action; a rejection is shown in the dialog, which stays open. */
  onConfirm: (input: { reason: string; amount: number; text: string }) => Promise<void>;
}

/** Every operator action asks why (and, for credits, how many); the reason goes to the ledger and the audit log. */
export function ReasonDialog({
  title,
  description,
  confirmLabel,
  withAmount,
  withText,
  destructive,
  onClose,
  onConfirm,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('1');
  const [text, setText] = useState(withText?.initial ?? '');
  const textId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const amountId = useId();
  const errorId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = Number(amount);
    if (withAmount && (!Number.isInteger(n) || n < 1 || n > 100_000)) {
      setError('Enter a whole number of credits between 1 and 100,000.');
      return;
    }
    if (!reason.trim()) {
      setError('Say why: the reason is kept in the ledger and the audit log.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm({ reason: reason.trim(), amount: n, text });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not reach the server.');
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={title}
      description={description}
      className="max-w-md"
      testId="reason-dialog"
    >
      <form className="mt-5 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        {withAmount ? (
          <div>
            <label htmlFor={amountId} className="text-sm font-semibold text-ink-900">
              Credits
            </label>
            <input
              id={amountId}
              type="number"
              inputMode="numeric"
              min={1}
              max={100000}
              step={1}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              className={`${inputClass} mt-1.5`}
              data-autofocus
              data-testid="reason-amount"
            />
          </div>
        ) : null}
        {withText ? (
          <div>
            <label htmlFor={textId} className="text-sm font-semibold text-ink-900">
              {withText.label}
            </label>
            <textarea
              id={textId}
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={3}
              className={`${inputClass} mt-1.5 font-mono`}
              data-autofocus
            />
          </div>
        ) : null}
        <div>
          <label htmlFor={reasonId} className="text-sm font-semibold text-ink-900">
            Reason
          </label>
          <textarea
            id={reasonId}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            rows={3}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className={`${inputClass} mt-1.5`}
            data-autofocus={withAmount || withText ? undefined : true}
            data-testid="reason-text"
          />
        </div>
        {error ? (
          <p id={errorId} role="alert" className="flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {error}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={destructive ? 'destructive' : 'primary'}
            disabled={busy}
            data-testid="reason-confirm"
          >
            {busy ? <Spinner className="size-4" /> : null}
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
