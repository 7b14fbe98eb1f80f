import { useState } from 'react';
import { categoryInfo, type ReportStatus, type TryOnItem } from '@aidressup/contract';
import { ResultActions } from '../../../components/result-actions';
import { buttonClasses } from '../../../components/ui/button';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { AlertIcon, ShareIcon, TrashIcon } from '../../../components/ui/icons';
import { categoryLabel } from '../../../i18n/category';
import { useFormat } from '../../../i18n/format';
import { useT, type MessageId } from '../../../i18n/use-t';
import { useStillKept } from '../hooks/use-still-kept';
import { describeItem, formatMadeAt } from '../utils/describe-item';
import { PreviewNote, type PhotoRealProps } from './preview-note';

const REPORT_STATE_IDS: Record<ReportStatus, MessageId> = {
  pending: 'report.state.pending',
  refunded: 'report.state.refunded',
  rejected: 'report.state.rejected',
};

export interface GalleryCardProps {
  item: TryOnItem;
  /** Loaded at once (the first cards), else when scrolled near. */
  eager: boolean;
  /** Another card shares its category and minute: its time is told to the second. */
  withSeconds?: boolean;
  /** The engine's name as the public configuration gives it (its id when unknown). */
  engineLabel: (id: string) => string;
  onShare: (item: TryOnItem) => void;
  onDelete: (item: TryOnItem) => void;
  /** Opens "Report a problem" for a result not reported yet. */
  onReport: (item: TryOnItem) => void;
  photoReal?: PhotoRealProps | undefined;
}

/**
 * The garment the result was made from, over the result's corner: its photo while the server keeps
 * it (a quick preview's photos, for a while), else the category's icon.
 */
function GarmentBadge({ item, category }: { item: TryOnItem; category: string }) {
  const t = useT();
  const kept = useStillKept(item.photosKeptUntil);
  const [failed, setFailed] = useState(false);
  const frame =
    'absolute end-3 bottom-3 grid size-16 place-items-center overflow-hidden rounded-2xl bg-white shadow-md ring-1 ring-ink-200';
  if (item.garmentUrl && kept && !failed)
    return (
      <img
        src={item.garmentUrl}
        alt={t('gallery.item.garmentAlt', { category })}
        // The photo goes when its time is over: the icon takes its place.
        onError={() => setFailed(true)}
        decoding="async"
        className={`${frame} object-contain p-1`}
        data-testid="gallery-item-garment"
      />
    );
  return (
    <span className={`${frame} text-brand-600`} aria-hidden="true" data-testid="gallery-item-garment-icon">
      <CategoryIcon icon={categoryInfo(item.category).icon} className="size-8" />
    </span>
  );
}

/** One result in My Gallery: the image with its garment, a caption, what it is, and what can be done with it. */
export function GalleryCard({
  item,
  eager,
  withSeconds = false,
  engineLabel,
  onShare,
  onDelete,
  onReport,
  photoReal,
}: GalleryCardProps) {
  const t = useT();
  const f = useFormat();
  const category = categoryLabel(t, item.category);
  const made = formatMadeAt(item.createdAt, f.locale, withSeconds);
  const name = describeItem(item, t, f.locale, withSeconds);
  return (
    <li
      // Focusable from script only: the gallery may bring it into view.
      tabIndex={-1}
      aria-label={name}
      className="flex scroll-mt-40 flex-col overflow-hidden rounded-3xl border border-ink-200 bg-white shadow-sm focus:outline-none focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      data-testid="gallery-item"
      data-item-id={item.id}
    >
      <figure className="m-0">
        <div className="relative aspect-[3/4] bg-ink-100">
          <img
            src={item.imageUrl}
            alt={t('gallery.item.alt', { category, date: made })}
            loading={eager ? 'eager' : 'lazy'}
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
          <GarmentBadge item={item} category={category} />
        </div>
        <figcaption className="flex flex-col px-4 pt-4" data-testid="gallery-item-caption">
          <span className="font-semibold text-ink-950" data-testid="gallery-item-category">
            {category}
          </span>
          <time dateTime={item.createdAt} className="text-sm text-ink-600" data-testid="gallery-item-date">
            {made}
          </time>
        </figcaption>
      </figure>
      <div className="flex flex-1 flex-col gap-4 p-4 pt-3">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-ink-500">{t('gallery.item.engine')}</dt>
          <dd className="min-w-0 break-words text-ink-700" data-testid="gallery-item-engine">
            {engineLabel(item.engine)}
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
        {item.preview ? <PreviewNote item={item} name={name} photoReal={photoReal} /> : null}
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
        <div className="mt-auto">
          <ResultActions
            tryonId={item.id}
            imageUrl={item.imageUrl}
            name={name}
            onShare={() => onShare(item)}
            onReport={item.report ? undefined : () => onReport(item)}
            size="sm"
          >
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
          </ResultActions>
        </div>
      </div>
    </li>
  );
}
