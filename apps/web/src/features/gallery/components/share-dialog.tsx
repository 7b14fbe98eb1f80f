import { useEffect, useId, useRef, useState } from 'react';
import { WEB_MESSAGES } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, CheckIcon, CopyIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { shareTryOn } from '../api/share-tryon';
import { unshareTryOn } from '../api/unshare-tryon';

/** What the dialog needs of the result it shares. */
export interface SharedResult {
  /** Its try-on id. */
  id: string;
  /** Its image, shown small so the shopper sees which result the link shows. */
  imageUrl: string;
  /** Its public link when it has one already (else the dialog makes one). */
  shareUrl: string | null;
  /** How it is named where several are on the page ("Upper Body result from …", "Result 2"). */
  name?: string | undefined;
}

export interface ShareDialogProps {
  /** The result being shared (the page mounts one dialog per result, keyed by its id). */
  result: SharedResult;
  onClose: () => void;
  /** The result's link changed: a new link, or null once sharing stopped (a stable function). */
  onShareUrl: (id: string, url: string | null) => void;
  /** A short message for screen readers (the page's live region; a stable function). */
  announce: (message: string) => void;
}

/** An error as English text and code (translated when shown). */
interface ErrorText {
  message: string;
  code?: string;
}
const errorOf = (e: unknown): ErrorText =>
  e instanceof ApiError ? { message: e.message, code: e.code } : { message: WEB_MESSAGES.galleryShareFailed };

/**
 * Shares a result: makes its public link (or shows the one it has), with Copy and Stop sharing.
 */
export function ShareDialog({ result, onClose, onShareUrl, announce }: ShareDialogProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const [url, setUrl] = useState<string | null>(result.shareUrl);
  const [error, setError] = useState<ErrorText | null>(null);
  const [stopping, setStopping] = useState(false);
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const { id } = result;
  const creating = url === null && error === null;

  // The dialog makes the link when the result has none yet (again on "Try again").
  useEffect(() => {
    if (!creating) return;
    let live = true;
    shareTryOn(id)
      .then((made) => {
        if (!live) return;
        setUrl(made);
        onShareUrl(id, made);
        announce(t('gallery.share.announce.created'));
      })
      .catch((e: unknown) => {
        if (live) setError(errorOf(e));
      });
    return () => {
      live = false;
    };
    // The link is made once per attempt, not again when the language changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, creating, onShareUrl, announce]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setError(null);
      announce(t('gallery.share.announce.copied'));
    } catch {
      inputRef.current?.select();
      setError({ message: WEB_MESSAGES.copyFailed });
    }
  };

  const stop = async () => {
    setStopping(true);
    setError(null);
    try {
      await unshareTryOn(id);
      onShareUrl(id, null);
      announce(t('gallery.share.announce.stopped'));
      onClose();
    } catch (e) {
      setError(errorOf(e));
    } finally {
      setStopping(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('gallery.share.title')}
      description={t('gallery.share.description')}
      className="max-w-lg"
      testId="share-dialog"
      focusKey={url ?? (error ? 'error' : 'loading')}
    >
      <div className="mt-3 flex items-center gap-3">
        <img
          src={result.imageUrl}
          alt=""
          className="size-16 shrink-0 rounded-xl bg-ink-100 object-contain ring-1 ring-ink-200"
          data-testid="share-result-image"
        />
        {result.name ? <p className="text-sm text-ink-500">{result.name}</p> : null}
      </div>
      {url ? (
        <div className="mt-5">
          <label htmlFor={inputId} className="text-sm font-semibold text-ink-800">
            {t('gallery.share.link')}
          </label>
          <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
            <input
              id={inputId}
              ref={inputRef}
              type="text"
              readOnly
              // A link reads left to right, in Arabic too.
              dir="ltr"
              value={url}
              onFocus={(e) => e.currentTarget.select()}
              className="h-11 w-full min-w-0 rounded-xl sm:flex-1 border border-ink-200 bg-ink-50 px-3 font-mono text-sm text-ink-800 focus-visible:outline-3 focus-visible:outline-brand-500"
              data-testid="share-url"
            />
            <Button variant="primary" size="md" onClick={() => void copy()} data-autofocus>
              {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
              {copied ? t('gallery.share.copied') : t('gallery.share.copy')}
            </Button>
          </div>
        </div>
      ) : creating ? (
        <p role="status" className="mt-6 flex items-center gap-3 text-ink-600">
          <Spinner className="size-5 text-brand-600" />
          {t('gallery.share.creating')}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-4 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {localize(error.message, error.code)}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          {t('gallery.share.done')}
        </Button>
        {url ? (
          <Button variant="danger" onClick={() => void stop()} disabled={stopping}>
            {stopping ? t('gallery.share.stopping') : t('gallery.share.stop')}
          </Button>
        ) : error ? (
          <Button variant="primary" onClick={() => setError(null)}>
            {t('gallery.share.tryAgain')}
          </Button>
        ) : null}
      </div>
    </Dialog>
  );
}
