import { categoryInfo, type TryOnItem } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { DownloadIcon, ShareIcon, TrashIcon } from '../../../components/ui/icons';

// The browser's locale and time zone.
export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function extensionOf(url: string): string {
  const ext = /\.(png|jpe?g|webp)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? 'png';
  return ext === 'jpeg' ? 'jpg' : ext;
}

/** How a result is named to screen readers: its category and when it was made. */
export function describeItem(item: TryOnItem): string {
  return `${categoryInfo(item.category).label} result from ${dateFormat.format(new Date(item.createdAt))}`;
}

export interface GalleryGridProps {
  items: TryOnItem[];
  /** The engine's name as the public configuration gives it (its id when unknown). */
  engineLabel: (id: string) => string;
  onShare: (item: TryOnItem) => void;
  onDelete: (item: TryOnItem) => void;
}

export function GalleryGrid({ items, engineLabel, onShare, onDelete }: GalleryGridProps) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
      {items.map((item, i) => {
        const cat = categoryInfo(item.category);
        const created = new Date(item.createdAt);
        const name = describeItem(item);
        return (
          <li
            key={item.id}
            className="flex flex-col overflow-hidden rounded-3xl border border-ink-200 bg-white shadow-sm"
            data-testid="gallery-item"
          >
            <div className="relative aspect-[3/4] bg-ink-100">
              <img
                src={item.imageUrl}
                alt={`Try-on result, ${cat.label}, ${dateFormat.format(created)}`}
                loading={i < 3 ? 'eager' : 'lazy'}
                decoding="async"
                className="h-full w-full object-contain"
              />
              {item.shareUrl ? (
                <span
                  className="absolute top-3 left-3 inline-flex items-center gap-1 rounded-full bg-white/95 px-2.5 py-1 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100"
                  data-testid="gallery-item-shared"
                >
                  <ShareIcon className="size-3.5" />
                  Shared
                </span>
              ) : null}
            </div>
            <div className="flex flex-1 flex-col gap-4 p-4">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                <dt className="sr-only">Category</dt>
                <dd className="col-span-2 font-semibold text-ink-950" data-testid="gallery-item-category">
                  {cat.label}
                </dd>
                <dt className="text-ink-500">Engine</dt>
                <dd className="min-w-0 truncate text-ink-700" data-testid="gallery-item-engine">
                  {engineLabel(item.engine)}
                </dd>
                <dt className="text-ink-500">Made</dt>
                <dd className="text-ink-700">
                  <time dateTime={item.createdAt} data-testid="gallery-item-date">
                    {dateFormat.format(created)}
                  </time>
                </dd>
                {item.expiresAt ? (
                  <>
                    <dt className="text-ink-500">Kept until</dt>
                    <dd className="text-ink-700">
                      <time dateTime={item.expiresAt}>{dayFormat.format(new Date(item.expiresAt))}</time>
                    </dd>
                  </>
                ) : null}
              </dl>
              <div className="mt-auto flex flex-wrap items-center gap-2">
                <a
                  href={item.imageUrl}
                  download={`ai-dress-up-${item.id}.${extensionOf(item.imageUrl)}`}
                  className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-xl bg-ink-950 px-3 text-sm font-semibold text-white hover:bg-ink-800 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
                >
                  <DownloadIcon className="size-4" />
                  Download
                  <span className="sr-only"> {name}</span>
                </a>
                <button
                  type="button"
                  className={buttonClasses('secondary', 'sm')}
                  onClick={() => onShare(item)}
                  aria-haspopup="dialog"
                >
                  <ShareIcon className="size-4" />
                  Share
                  <span className="sr-only"> {name}</span>
                </button>
                <button
                  type="button"
                  className={buttonClasses('danger', 'sm', 'ml-auto w-9 px-0')}
                  onClick={() => onDelete(item)}
                  aria-haspopup="dialog"
                  aria-label={`Delete ${name}`}
                  title="Delete"
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
