import { categoryInfo, type TryOnItem } from '@aidressup/contract';
import { DownloadIcon } from '../../../components/ui/icons';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

function extensionOf(url: string): string {
  const ext = /\.(png|jpe?g|webp)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? 'png';
  return ext === 'jpeg' ? 'jpg' : ext;
}

export function GalleryGrid({ items }: { items: TryOnItem[] }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
      {items.map((item, i) => {
        const cat = categoryInfo(item.category);
        const created = new Date(item.createdAt);
        return (
          <li key={item.id} className="overflow-hidden rounded-3xl border border-ink-200 bg-white shadow-sm" data-testid="gallery-item">
            <div className="aspect-[3/4] bg-ink-100">
              <img
                src={item.imageUrl}
                alt={`Try-on result, ${cat.label}, ${dateFormat.format(created)}`}
                loading={i < 3 ? 'eager' : 'lazy'}
                decoding="async"
                className="h-full w-full object-contain"
              />
            </div>
            <div className="flex items-center justify-between gap-3 p-4">
              <div className="min-w-0 text-sm">
                <p className="font-semibold text-ink-950">{cat.label}</p>
                <p className="text-ink-500">
                  <time dateTime={item.createdAt}>{dateFormat.format(created)}</time>
                </p>
                {item.expiresAt ? <p className="text-xs text-ink-500">Kept until {dayFormat.format(new Date(item.expiresAt))}</p> : null}
              </div>
              <a
                href={item.imageUrl}
                download={`ai-dress-up-${item.id}.${extensionOf(item.imageUrl)}`}
                className="inline-flex h-10 shrink-0 items-center gap-1.5 rounded-xl bg-ink-950 px-3 text-sm font-semibold text-white hover:bg-ink-800"
              >
                <DownloadIcon className="size-4" />
                Download
                <span className="sr-only">
                  {' '}
                  {cat.label} result from {dateFormat.format(created)}
                </span>
              </a>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
