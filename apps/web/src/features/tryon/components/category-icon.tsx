import type { CategoryInfo } from '@aidressup/contract';
import { DressIcon, ShirtIcon, TrousersIcon } from '../../../components/ui/icons';

export function CategoryIcon({ icon, className }: { icon: CategoryInfo['icon']; className?: string }) {
  if (icon === 'trousers') return <TrousersIcon className={className} />;
  if (icon === 'dress') return <DressIcon className={className} />;
  return <ShirtIcon className={className} />;
}
