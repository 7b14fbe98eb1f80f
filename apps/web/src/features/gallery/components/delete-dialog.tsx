import { useState } from 'react';
import { WEB_MESSAGES, type TryOnItem } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, TrashIcon } from '../../../components/ui/icons';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { deleteTryOn } from '../api/delete-tryon';
import { useDescribeItem } from '../utils/describe-item';

export interface DeleteDialogProps {
  /** The result to delete (the page mounts one dialog per result, keyed by its id). */
  item: TryOnItem;
  onClose: () => void;
  /** The result is gone (the server deleted it, or it was gone already). */
  onDeleted: (item: TryOnItem) => void;
}

/** Asks before deleting a result for good (Cancel has the focus first). */
export function DeleteDialog({ item, onClose, onDeleted }: DeleteDialogProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const describe = useDescribeItem();
  const [busy, setBusy] = useState(false);
  /** The English text and code; translated when shown. */
  const [error, setError] = useState<{ message: string; code?: string } | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteTryOn(item.id);
      onDeleted(item);
    } catch (e) {
      // Already gone (deleted in another tab, or expired): the page should not list it either.
      if (e instanceof ApiError && e.code === 'NOT_FOUND') onDeleted(item);
      else
        setError(
          e instanceof ApiError ? { message: e.message, code: e.code } : { message: WEB_MESSAGES.galleryDeleteFailed },
        );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={t('gallery.delete.title')}
      description={t('gallery.delete.description')}
      className="max-w-md"
      testId="delete-dialog"
    >
      <p className="mt-1 text-sm text-ink-500">{describe(item)}</p>
      {error ? (
        <p role="alert" className="mt-4 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {localize(error.message, error.code)}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-autofocus>
          {t('gallery.delete.cancel')}
        </Button>
        <Button variant="destructive" onClick={() => void confirm()} disabled={busy}>
          <TrashIcon className="size-4" />
          {busy ? t('gallery.delete.deleting') : t('gallery.delete.confirm')}
        </Button>
      </div>
    </Dialog>
  );
}
