import { RESULT_RETENTION_DAYS, TRANSACTION_RETENTION_YEARS } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, TrashIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';

export interface DeleteDataDialogProps {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
  credits: number;
  signedIn: boolean;
  /** The name of a plan that still renews: deleting the data does not cancel it. */
  renewingPlan: string | null;
}

/** Confirms "Delete my data": says what goes, that unspent credits are forfeited, and what is kept. */
export function DeleteDataDialog({
  open,
  onClose,
  onConfirm,
  busy,
  error,
  credits,
  signedIn,
  renewingPlan,
}: DeleteDataDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={busy ? () => {} : onClose}
      title="Delete your data?"
      description="This cannot be undone."
      className="max-w-lg"
      testId="delete-data-dialog"
    >
      <ul className="mt-5 list-disc space-y-2 pl-5 text-sm leading-6 text-ink-700">
        <li>
          Your try-on <strong>results are deleted</strong> at once (they would otherwise be kept {RESULT_RETENTION_DAYS}{' '}
          days), with any photos still being processed.
        </li>
        <li>
          {signedIn ? 'Your email address, ' : ''}device information and sign-ins are deleted
          {signedIn ? ', and every device is signed out' : ''}.
        </li>
        <li>
          <strong>Unspent credits are forfeited</strong>
          {credits > 0 ? ` (you have ${credits})` : ''} and cannot be refunded or restored.
        </li>
        <li>
          Purchase records are kept for {TRANSACTION_RETENTION_YEARS} years, as the law requires, without your personal
          data.
        </li>
      </ul>
      {renewingPlan ? (
        <p
          className="mt-4 flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          role="note"
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span>
            Your <strong>{renewingPlan}</strong> plan renews automatically. Deleting your data does not cancel it:
            cancel it first with Manage subscription.
          </span>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-autofocus>
          Keep my data
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={busy} data-testid="confirm-delete">
          {busy ? <Spinner className="size-4" /> : <TrashIcon className="size-4" />}
          Delete my data
        </Button>
      </div>
    </Dialog>
  );
}
