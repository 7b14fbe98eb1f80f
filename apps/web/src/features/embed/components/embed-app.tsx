import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import {
  ALLOWED_IMAGE_TYPES,
  CATEGORY_VALUES,
  EMBED_MESSAGES,
  EngineBusyResponseSchema,
  MAX_UPLOAD_BYTES,
  type Category,
} from '@aidressup/contract';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { CameraIcon, DownloadIcon, RefreshIcon, UploadIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { clientTimeoutMs } from '../../../lib/client-timeout';
import { checkPhoto, measureImage, shrinkLazily } from '../../../lib/photos/check-photo';
import { useT } from '../../../i18n/use-t';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { embedTryOn, openEmbedSession } from '../api/embed-api';

/** What the server put in the frame's page (`http/embed-page.ts`). */
export interface EmbedSettings {
  key: string;
  /** The shop's name; null: the key is missing or unknown. */
  merchant: string | null;
}

export interface CompareProps {
  beforeUrl: string;
  afterUrl: string;
  beforeAlt: string;
  afterAlt: string;
}

type Phase =
  | { kind: 'waiting' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready' }
  | { kind: 'working'; startedAt: number }
  | { kind: 'result'; imageUrl: string }
  | { kind: 'error'; message: string };

interface Garment {
  url: string;
  blob: Blob;
  category: Category;
  /** The image's address in the shop's page (recorded by the server only if it refuses the image). */
  sourceUrl: string | null;
}

/** The server refused the shop's garment photo itself: this product cannot be previewed here. */
function refusesProductPhoto(err: unknown): boolean {
  return err instanceof ApiError && (err.body as { field?: unknown } | undefined)?.field === 'clothingImage';
}

/**
 * The shop widget's frame: the garment the shop's page sent, the shopper's photo (upload, camera
 * or paste), a consent line, Try, progress, the result with a compare slider and download, and
 * "Try another photo". Tells the page `aidressup:result` (nothing else) when a result is shown.
 */
export function EmbedApp({ settings, Compare }: { settings: EmbedSettings; Compare: ComponentType<CompareProps> }) {
  const t = useT();
  const localize = useLocalizeMessage();
  const framed = window.parent !== window;
  const [phase, setPhase] = useState<Phase>(() =>
    settings.merchant === null
      ? { kind: 'failed', message: t('msg.embedKeyInvalid') }
      : framed
        ? { kind: 'waiting' }
        : { kind: 'failed', message: t('embed.openFromShop') },
  );
  const [garment, setGarment] = useState<Garment | null>(null);
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const token = useRef<string | null>(null);
  /** The engine's own estimate, from the session: the page waits as long as the main page would. */
  const estimate = useRef<{ min: number; max: number } | undefined>(undefined);
  /** The ticket of the last busy answer: sent with the next press, it keeps the shopper's place in line. */
  const lineTicket = useRef<string | undefined>(undefined);
  const pageOrigin = useRef<string | null>(null);
  const uploadInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const tell = useCallback((type: string) => {
    if (pageOrigin.current) window.parent.postMessage({ type }, pageOrigin.current);
  }, []);

  const errorText = useCallback(
    (err: unknown) =>
      err instanceof ApiError && err.message ? localize(err.message, err.code) : t('embed.genericError'),
    [localize, t],
  );

  // The page sends the garment's bytes once the frame says it is ready; only the parent counts.
  useEffect(() => {
    if (settings.merchant === null || !framed) return;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || pageOrigin.current !== null) return;
      const data = event.data as {
        type?: unknown;
        image?: unknown;
        mime?: unknown;
        category?: unknown;
        url?: unknown;
      } | null;
      if (data?.type === EMBED_MESSAGES.garmentError) {
        setPhase({ kind: 'failed', message: t('embed.garmentUnreadable') });
        return;
      }
      if (data?.type !== EMBED_MESSAGES.garment || !(data.image instanceof ArrayBuffer)) return;
      pageOrigin.current = event.origin;
      const blob = new Blob([data.image], { type: typeof data.mime === 'string' ? data.mime : '' });
      const category = (CATEGORY_VALUES as readonly string[]).includes(String(data.category))
        ? (data.category as Category)
        : 'upper_body';
      const sourceUrl = typeof data.url === 'string' ? data.url : null;
      setGarment({ blob, url: URL.createObjectURL(blob), category, sourceUrl });
      openEmbedSession(settings.key, event.origin).then(
        (session) => {
          token.current = session.token;
          estimate.current = session.estimateSeconds;
          setPhase({ kind: 'ready' });
        },
        (err: unknown) => setPhase({ kind: 'failed', message: errorText(err) }),
      );
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ type: EMBED_MESSAGES.ready }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [settings, framed, t, errorText]);

  // Escape inside the frame closes the overlay too.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') window.parent.postMessage({ type: EMBED_MESSAGES.close }, pageOrigin.current ?? '*');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The shopper's photo goes through the main page's checks (type, bytes, decodes, size; shrunk
  // when over the limit); the latest pick wins.
  const pickSeq = useRef(0);
  const choosePhoto = useCallback(
    (file: File | null | undefined) => {
      if (!file) return;
      const mine = ++pickSeq.current;
      void checkPhoto(file, 'person', MAX_UPLOAD_BYTES, { measure: measureImage, shrink: shrinkLazily })
        .then((checked) => {
          if (mine !== pickSeq.current) return;
          if (!checked.ok) {
            setPhotoError(localize(checked.message));
            return;
          }
          setPhotoError(null);
          setPhoto((old) => {
            if (old) URL.revokeObjectURL(old.url);
            return { blob: checked.file, url: URL.createObjectURL(checked.file) };
          });
        })
        .catch(() => {
          if (mine === pickSeq.current) setPhotoError(t('embed.notAnImage'));
        });
    },
    [t, localize],
  );

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = [...(event.clipboardData?.files ?? [])].find((f) => f.type.startsWith('image/'));
      if (file) {
        event.preventDefault();
        choosePhoto(file);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [choosePhoto]);

  useEffect(() => {
    if (phase.kind !== 'working') return;
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - phase.startedAt) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [phase]);

  useEffect(() => {
    if (phase.kind === 'result' || phase.kind === 'error') headingRef.current?.focus();
  }, [phase.kind]);

  const tryOn = async () => {
    if (!photo || !garment || !token.current) return;
    setElapsed(0);
    setPhase({ kind: 'working', startedAt: Date.now() });
    try {
      const result = await embedTryOn(
        token.current,
        {
          person: photo.blob,
          garment: garment.blob,
          category: garment.category,
          garmentUrl: garment.sourceUrl,
          lineTicket: lineTicket.current,
        },
        AbortSignal.timeout(clientTimeoutMs(estimate.current)),
      );
      lineTicket.current = undefined;
      setPhase({ kind: 'result', imageUrl: result.imageUrl });
      tell(EMBED_MESSAGES.result);
    } catch (err) {
      // Busy: the answer's ticket keeps the shopper's place for the next press.
      const busy = err instanceof ApiError ? EngineBusyResponseSchema.safeParse(err.body) : undefined;
      lineTicket.current = busy?.success ? busy.data.ticket : undefined;
      // The shop's photo of this product cannot be used: no other photo of the shopper would help.
      setPhase({ kind: refusesProductPhoto(err) ? 'failed' : 'error', message: errorText(err) });
    }
  };

  const another = () => {
    setPhoto((old) => {
      if (old) URL.revokeObjectURL(old.url);
      return null;
    });
    setPhase({ kind: 'ready' });
  };

  if (phase.kind === 'failed' || phase.kind === 'waiting') {
    return (
      <Shell merchant={settings.merchant}>
        {phase.kind === 'waiting' ? (
          <p className="flex items-center gap-2 text-ink-700" role="status">
            <Spinner className="size-5" />
            {t('embed.loadingGarment')}
          </p>
        ) : (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            {garment ? (
              // The product the message is about (its photo could not be used).
              <img
                src={garment.url}
                alt={t('embed.garmentAlt')}
                className="max-h-40 w-auto self-center rounded-xl object-contain ring-1 ring-ink-200 sm:self-start"
              />
            ) : null}
            <p role="alert" className="min-w-0 flex-1 rounded-xl bg-amber-50 p-4 text-ink-900 ring-1 ring-amber-200">
              {phase.message}
            </p>
          </div>
        )}
      </Shell>
    );
  }

  return (
    <Shell merchant={settings.merchant}>
      <div className="grid gap-5 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <figure className="self-start rounded-2xl bg-ink-50 p-3 ring-1 ring-ink-200">
          {garment && (
            <img
              src={garment.url}
              alt={t('embed.garmentAlt')}
              className="mx-auto max-h-48 w-auto object-contain sm:max-h-80"
              data-testid="embed-garment"
            />
          )}
        </figure>

        <div className="min-w-0">
          {phase.kind === 'result' ? (
            <section aria-labelledby="embed-result-heading" className="space-y-4">
              <h2 id="embed-result-heading" ref={headingRef} tabIndex={-1} className="text-lg font-bold text-ink-950">
                {t('embed.resultHeading')}
              </h2>
              {photo && (
                <Compare
                  beforeUrl={photo.url}
                  afterUrl={phase.imageUrl}
                  beforeAlt={t('embed.photoAlt')}
                  afterAlt={t('embed.resultAlt')}
                />
              )}
              <div className="flex flex-wrap gap-2">
                <a href={phase.imageUrl} download className={buttonClasses('primary', 'md')}>
                  <DownloadIcon className="size-4" />
                  {t('embed.download')}
                </a>
                <Button variant="secondary" onClick={another}>
                  <RefreshIcon className="size-4" />
                  {t('embed.another')}
                </Button>
              </div>
            </section>
          ) : (
            <section aria-labelledby="embed-photo-heading" className="space-y-4">
              <h2 id="embed-photo-heading" className="text-lg font-bold text-ink-950">
                {t('embed.photoHeading')}
              </h2>
              {photo ? (
                <img
                  src={photo.url}
                  alt={t('embed.photoAlt')}
                  className="max-h-56 w-auto rounded-xl object-contain ring-1 ring-ink-200"
                />
              ) : (
                <p className="text-sm text-ink-600">{t('embed.photoHint')}</p>
              )}
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  onClick={() => uploadInput.current?.click()}
                  disabled={phase.kind === 'working'}
                >
                  <UploadIcon className="size-4" />
                  {photo ? t('embed.changePhoto') : t('embed.upload')}
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => cameraInput.current?.click()}
                  disabled={phase.kind === 'working'}
                >
                  <CameraIcon className="size-4" />
                  {t('embed.camera')}
                </Button>
              </div>
              <p className="text-xs text-ink-500">{t('embed.paste')}</p>
              <input
                ref={uploadInput}
                type="file"
                accept={ALLOWED_IMAGE_TYPES.join(',')}
                className="sr-only"
                tabIndex={-1}
                aria-hidden="true"
                data-testid="embed-photo-input"
                onChange={(e) => {
                  choosePhoto(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <input
                ref={cameraInput}
                type="file"
                accept="image/*"
                capture="user"
                className="sr-only"
                tabIndex={-1}
                aria-hidden="true"
                onChange={(e) => {
                  choosePhoto(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              {photoError && (
                <p role="alert" className="text-sm text-red-700">
                  {photoError}
                </p>
              )}
              <label className="flex items-start gap-2 text-sm text-ink-800">
                <input
                  type="checkbox"
                  checked={consent}
                  onChange={(e) => setConsent(e.target.checked)}
                  className="mt-0.5 size-4 shrink-0 accent-brand-600"
                />
                <span>{t('embed.consent')}</span>
              </label>
              {phase.kind === 'error' && (
                <p
                  role="alert"
                  ref={headingRef}
                  tabIndex={-1}
                  className="rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200"
                >
                  {phase.message}
                </p>
              )}
              {phase.kind === 'working' ? (
                <div role="status" className="space-y-2">
                  <p className="flex items-center gap-2 text-ink-800">
                    <Spinner className="size-5 text-brand-600" />
                    {t('embed.progress')}
                  </p>
                  <div
                    role="progressbar"
                    aria-label={t('embed.progress')}
                    aria-valuetext={t('embed.elapsed', { seconds: elapsed })}
                    className="h-2 overflow-hidden rounded-full bg-ink-100"
                  >
                    <div className="h-full w-1/3 animate-pulse rounded-full bg-brand-500" />
                  </div>
                  <p className="text-xs text-ink-500" aria-hidden="true">
                    {t('embed.elapsed', { seconds: elapsed })}
                  </p>
                </div>
              ) : (
                <Button
                  size="lg"
                  className="w-full sm:w-auto"
                  disabled={!photo || !consent}
                  onClick={() => void tryOn()}
                >
                  {phase.kind === 'error' ? t('embed.retry') : t('embed.try')}
                </Button>
              )}
            </section>
          )}
        </div>
      </div>
      <p className="mt-5 text-xs text-ink-500">{t('embed.privacy')}</p>
    </Shell>
  );
}

function Shell({ merchant, children }: { merchant: string | null; children: ReactNode }) {
  const t = useT();
  return (
    <main className="mx-auto max-w-4xl p-4 sm:p-6">
      <header className="mb-4 pe-12">
        <h1 className="text-xl font-extrabold tracking-tight text-ink-950">{t('embed.title')}</h1>
        {merchant && <p className="text-sm text-ink-600">{t('embed.shopLine', { shop: merchant })}</p>}
      </header>
      {children}
      <p className="mt-3 text-xs text-ink-500">{t('embed.poweredBy')}</p>
    </main>
  );
}
