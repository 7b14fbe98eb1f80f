import { useMemo } from 'react';
import type { TryOnItem } from '@aidressup/contract';
import { useFormat } from '../../../i18n/format';
import { sameMinuteIds } from '../utils/describe-item';
import { GalleryCard } from './gallery-card';
import type { PhotoRealProps } from './preview-note';

export type { PhotoRealProps } from './preview-note';

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

/** My Gallery's results, newest first, one card each. */
export function GalleryGrid({ items, ...props }: GalleryGridProps) {
  const { locale } = useFormat();
  const toTheSecond = useMemo(() => sameMinuteIds(items, locale), [items, locale]);
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
      {items.map((item, i) => (
        <GalleryCard key={item.id} item={item} eager={i < 3} withSeconds={toTheSecond.has(item.id)} {...props} />
      ))}
    </ul>
  );
}
