import { RESULT_RETENTION_DAYS, TRANSACTION_RETENTION_YEARS } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, TrashIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';

export interface DeleteDataDialogProps {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
  errorCode?: string | null;
  credits: number;
  signedIn: boolean;
  /** The name of a plan that still renews: deleting the data cancels it (the server does, first). */
  renewingPlan: string | null;
}

/** Confirms "Delete my data": says what goes, that unspent credits are forfeited, and what is kept. */
export function DeleteDataDialog({
  open,
  onClose,
  onConfirm,
  busy,
  error,
  errorCode,
  credits,
  signedIn,
  renewingPlan,
}: DeleteDataDialogProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const strong = { 0: (text: string) => <strong>{text}</strong> };
  return (
    <Dialog
      open={open}
      onClose={busy ? () => {} : onClose}
      title={t('account.delete.dialogTitle')}
      description={t('account.delete.dialogDescription')}
      className="max-w-lg"
      testId="delete-data-dialog"
    >
      <ul className="mt-5 list-disc space-y-2 ps-5 text-sm leading-6 text-ink-700">
        <li>{rich(t('account.delete.results', { days: RESULT_RETENTION_DAYS }), strong)}</li>
        <li>{signedIn ? t('account.delete.identitySignedIn') : t('account.delete.identity')}</li>
        <li>
          {rich(credits > 0 ? t('account.delete.creditsCount', { credits }) : t('account.delete.credits'), strong)}
        </li>
        <li>{t('account.delete.records', { years: TRANSACTION_RETENTION_YEARS })}</li>
      </ul>
      {renewingPlan ? (
        <p
          className="mt-4 flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          role="note"
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span>{rich(t('account.delete.renewing', { plan: renewingPlan }), strong)}</span>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {localize(error, errorCode)}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-autofocus>
          {t('account.delete.keep')}
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={busy} data-testid="confirm-delete">
          {busy ? <Spinner className="size-4" /> : <TrashIcon className="size-4" />}
          {t('account.delete.action')}
        </Button>
      </div>
    </Dialog>
  );
}
