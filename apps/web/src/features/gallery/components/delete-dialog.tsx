import { useState } from 'react';
import { WEB_MESSAGES, type TryOnItem } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, TrashIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { deleteTryOn } from '../api/delete-tryon';
import { describeItem } from './gallery-grid';

export interface DeleteDialogProps {
  /** The result to delete (the page mounts one dialog per result, keyed by its id). */
  item: TryOnItem;
  onClose: () => void;
  /** The result is gone (the server deleted it, or it was gone already). */
  onDeleted: (item: TryOnItem) => void;
}

/** Asks before deleting a result for good (Cancel has the focus first). */
export function DeleteDialog({ item, onClose, onDeleted }: DeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteTryOn(item.id);
      onDeleted(item);
    } catch (e) {
      // Already gone (deleted in another tab, or expired): the page should not list it either.
      if (e instanceof ApiError && e.code === 'NOT_FOUND') onDeleted(item);
      else setError(e instanceof ApiError ? e.message : WEB_MESSAGES.galleryDeleteFailed);
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
      title="Delete this result?"
      description="The image is deleted for good, and its share link stops working. This cannot be undone."
      className="max-w-md"
      testId="delete-dialog"
    >
      <p className="mt-1 text-sm text-ink-500">{describeItem(item)}</p>
      {error ? (
        <p role="alert" className="mt-4 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button variant="destructive" onClick={() => void confirm()} disabled={busy}>
          <TrashIcon className="size-4" />
          {busy ? 'Deleting…' : 'Delete'}
        </Button>
      </div>
    </Dialog>
  );
}
