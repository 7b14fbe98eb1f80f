import { useEffect, useMemo, useState } from 'react';
import { MESSAGES, type Locale, type ReportStatus, type TryOnItem } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { AlertIcon, DownloadIcon, ShareIcon, SparklesIcon, TrashIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { categoryLabel } from '../../../i18n/category';
import { formatters, useFormat } from '../../../i18n/format';
import { useT, type MessageId, type Translate } from '../../../i18n/use-t';
import { resultExtension } from '../../../lib/result-file';

const REPORT_STATE_IDS: Record<ReportStatus, MessageId> = {
  pending: 'report.state.pending',
  refunded: 'report.state.refunded',
  rejected: 'report.state.rejected',
};

/** When a result was made (date and time), in the page's language and the browser's time zone. */
export function formatMadeAt(iso: string, locale: Locale): string {
  return formatters(locale).dateTime(iso);
}

/** How a result is named to screen readers: its category and when it was made. */
export function describeItem(item: TryOnItem, t: Translate, locale: Locale): string {
  return t('gallery.item.describe', {
    category: categoryLabel(t, item.category),
    date: formatMadeAt(item.createdAt, locale),
  });
}

/** `describeItem` in the page's language. */
export function useDescribeItem(): (item: TryOnItem) => string {
  const t = useT();
  const { locale } = useFormat();
  return useMemo(() => (item: TryOnItem) => describeItem(item, t, locale), [t, locale]);
}

export interface GalleryGridProps {
  items: TryOnItem[];
  /** The engine's name as the public configuration gives it (its id when unknown). */
  engineLabel: (id: string) => string;
  onShare: (item: TryOnItem) => void;
  onDelete: (item: TryOnItem) => void;
  /** Opens "Report a problem" for a result not reported yet. */
  onReport: (item: TryOnItem) => void;
  /** "Make it photo-real" for quick previews whose photos are kept (absent: no hosted engine). */
  photoReal?: PhotoRealProps | undefined;
}

export interface PhotoRealProps {
  /** The hosted engine's name. */
  label: string;
  onRun: (item: TryOnItem) => void;
  /** The preview being made photo-real, if any. */
  running: string | null;
  /** A refusal for one preview (English, with its code: translated when shown). */
  error: { id: string; message: string; code?: string | undefined } | null;
}

/** A quick preview's label and what it means, and the way to the photo-real version while its photos are kept. */
function PreviewNote({ item, photoReal }: { item: TryOnItem; photoReal: PhotoRealProps | undefined }) {
  const t = useT();
  const localize = useLocalizeMessage();
  const until = item.photosKeptUntil ? Date.parse(item.photosKeptUntil) : NaN;
  const [gone, setGone] = useState(() => !(until > Date.now()));
  useEffect(() => {
    if (gone || !(until > 0)) return;
    const timer = setTimeout(() => setGone(true), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [gone, until]);
  const name = useDescribeItem()(item);
  const error = photoReal?.error?.id === item.id ? photoReal.error : null;
  return (
    <div
      className="rounded-2xl border border-amber-200 bg-amber-50 px-3 py-2.5 text-xs text-amber-950"
      data-testid="gallery-item-preview"
    >
      <p>
        <span className="me-2 inline-block rounded-full bg-amber-200/80 px-2 py-0.5 font-bold">
          {t('tryon.result.previewBadge')}
        </span>
        {t('gallery.previewText')}
      </p>
      {photoReal && item.photosKeptUntil ? (
        gone ? (
          <p className="mt-2 font-medium" data-testid="gallery-photos-gone">
            {localize(MESSAGES.photosGone)}
          </p>
        ) : (
          <button
            type="button"
            // Like a small primary button, but its label may wrap on a narrow card.
            className="mt-2 inline-flex min-h-9 items-center gap-1.5 rounded-xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-3 py-1.5 text-start text-sm font-semibold text-white shadow-lg shadow-brand-600/25 transition-colors select-none hover:from-brand-700 hover:to-fuchsia-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50"
            onClick={() => photoReal.onRun(item)}
            disabled={photoReal.running !== null}
            data-testid="gallery-make-photo-real"
          >
            {photoReal.running === item.id ? (
              <Spinner className="size-4 shrink-0" />
            ) : (
              <SparklesIcon className="size-4 shrink-0" />
            )}
            {photoReal.running === item.id
              ? t('tryon.result.rerunning')
              : t('tryon.result.makePhotoReal', { engine: photoReal.label })}
            <span className="sr-only"> {name}</span>
          </button>
        )
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 font-medium text-red-800" data-testid="gallery-photo-real-error">
          {localize(error.message, error.code)}
        </p>
      ) : null}
    </div>
  );
}

export function GalleryGrid({ items, engineLabel, onShare, onDelete, onReport, photoReal }: GalleryGridProps) {
  const t = useT();
  const f = useFormat();
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
      {items.map((item, i) => {
        const category = categoryLabel(t, item.category);
        const made = formatMadeAt(item.createdAt, f.locale);
        const name = describeItem(item, t, f.locale);
        return (
          <li
            key={item.id}
            // Focusable from script only: after a deletion the focus moves to the next item.
            tabIndex={-1}
            aria-label={name}
            className="flex scroll-mt-32 flex-col overflow-hidden rounded-3xl border border-ink-200 bg-white shadow-sm focus:outline-none focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            data-testid="gallery-item"
            data-item-id={item.id}
          >
            <div className="relative aspect-[3/4] bg-ink-100">
              <img
                src={item.imageUrl}
                alt={t('gallery.item.alt', { category, date: made })}
                loading={i < 3 ? 'eager' : 'lazy'}
                decoding="async"
                className="h-full w-full object-contain"
              />
              {item.shareUrl ? (
                <span
                  className="absolute start-3 top-3 inline-flex items-center gap-1 rounded-full bg-white/95 px-2.5 py-1 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100"
                  data-testid="gallery-item-shared"
                >
                  <ShareIcon className="size-3.5" />
                  {t('gallery.item.shared')}
                </span>
              ) : null}
            </div>
            <div className="flex flex-1 flex-col gap-4 p-4">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                <dt className="sr-only">{t('gallery.item.category')}</dt>
                <dd className="col-span-2 font-semibold text-ink-950" data-testid="gallery-item-category">
                  {category}
                </dd>
                <dt className="text-ink-500">{t('gallery.item.engine')}</dt>
                <dd className="min-w-0 break-words text-ink-700" data-testid="gallery-item-engine">
                  {engineLabel(item.engine)}
                </dd>
                <dt className="text-ink-500">{t('gallery.item.made')}</dt>
                <dd className="text-ink-700">
                  <time dateTime={item.createdAt} data-testid="gallery-item-date">
                    {made}
                  </time>
                </dd>
                {item.expiresAt ? (
                  <>
                    <dt className="text-ink-500">{t('gallery.item.keptUntil')}</dt>
                    <dd className="text-ink-700">
                      <time dateTime={item.expiresAt}>{f.date(item.expiresAt)}</time>
                    </dd>
                  </>
                ) : null}
              </dl>
              {item.preview ? <PreviewNote item={item} photoReal={photoReal} /> : null}
              {item.report ? (
                <p
                  className="inline-flex items-center gap-1.5 self-start rounded-full bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-900 ring-1 ring-amber-200"
                  data-testid="gallery-item-report"
                  data-status={item.report.status}
                >
                  <AlertIcon className="size-3.5" />
                  {t(REPORT_STATE_IDS[item.report.status])}
                </p>
              ) : null}
              <div className="mt-auto flex flex-wrap items-center gap-2">
                <a
                  href={item.imageUrl}
                  download={`ai-dress-up-${item.id}.${resultExtension(item.imageUrl)}`}
                  className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-xl bg-ink-950 px-3 text-sm font-semibold text-white hover:bg-ink-800 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
                >
                  <DownloadIcon className="size-4" />
                  {t('gallery.item.download')}
                  <span className="sr-only"> {name}</span>
                </a>
                <button
                  type="button"
                  className={buttonClasses('secondary', 'sm')}
                  onClick={() => onShare(item)}
                  aria-haspopup="dialog"
                >
                  <ShareIcon className="size-4" />
                  {t('gallery.item.share')}
                  <span className="sr-only"> {name}</span>
                </button>
                {item.report ? null : (
                  <button
                    type="button"
                    className={buttonClasses('ghost', 'sm', 'w-9 px-0')}
                    onClick={() => onReport(item)}
                    aria-haspopup="dialog"
                    aria-label={t('report.openLabel', { name })}
                    title={t('report.open')}
                    data-testid="gallery-item-report-button"
                  >
                    <AlertIcon className="size-4" />
                  </button>
                )}
                <button
                  type="button"
                  className={buttonClasses('danger', 'sm', 'ms-auto w-9 px-0')}
                  onClick={() => onDelete(item)}
                  aria-haspopup="dialog"
                  aria-label={t('gallery.item.deleteLabel', { name })}
                  title={t('gallery.item.delete')}
                >
                  <TrashIcon className="size-4" />
                </button>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
