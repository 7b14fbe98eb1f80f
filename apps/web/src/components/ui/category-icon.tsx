import type { TryOnCategoryInfo } from '@aidressup/contract';
import { DressIcon, ShirtIcon, ShoeIcon, TrousersIcon } from './icons';

export function CategoryIcon({ icon, className }: { icon: TryOnCategoryInfo['icon']; className?: string }) {
  if (icon === 'trousers') return <TrousersIcon className={className} />;
  if (icon === 'accessories') return <ShoeIcon className={className} />;
  if (icon === 'dress') return <DressIcon className={className} />;
  return <ShirtIcon className={className} />;
}
