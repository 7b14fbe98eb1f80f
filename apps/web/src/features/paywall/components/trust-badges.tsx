import type { PublicConfig } from '@aidressup/contract';
import { BoltIcon, LockIcon, ShieldIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';

export type TrustBadgeId = 'secure' | 'demo' | 'ssl' | 'instant';

/**
 * The badges that are true here: a secure payment only where a payment provider takes the card
 * (with demo billing nothing is charged, and the badge says so); "SSL Encrypted" only when the
 * page itself came over https; credits are added at once in both cases.
 */
export function trustBadgeIds(
  provider: PublicConfig['billing']['provider'],
  secureConnection: boolean,
): TrustBadgeId[] {
  return [provider === 'demo' ? 'demo' : 'secure', ...(secureConnection ? (['ssl'] as const) : []), 'instant'];
}

/** Whether this page was served over an encrypted connection. */
function pageIsEncrypted(): boolean {
  return typeof window !== 'undefined' && window.location.protocol === 'https:';
}

const ICONS = { secure: ShieldIcon, demo: ShieldIcon, ssl: LockIcon, instant: BoltIcon } as const;

export function TrustBadges({
  provider,
  secureConnection = pageIsEncrypted(),
}: {
  provider: PublicConfig['billing']['provider'];
  secureConnection?: boolean;
}) {
  const t = useT();
  return (
    <ul
      className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-ink-600"
      aria-label={t('paywall.trust.label')}
      data-testid="trust-badges"
    >
      {trustBadgeIds(provider, secureConnection).map((id) => {
        const Icon = ICONS[id];
        return (
          <li key={id} className="flex items-center gap-1.5" data-badge={id}>
            <Icon className={id === 'demo' ? 'size-4 text-amber-600' : 'size-4 text-emerald-600'} />
            {t(`paywall.trust.${id}`)}
          </li>
        );
      })}
    </ul>
  );
}
