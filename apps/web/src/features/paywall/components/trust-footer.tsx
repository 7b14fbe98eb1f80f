import type { PublicConfig } from '@aidressup/contract';
import { useT } from '../../../i18n/use-t';
import { TrustBadges } from './trust-badges';

/** Under the plans: the trust badges and what paying means (demo: never charged; else renewal). */
export function TrustFooter({ provider }: { provider: PublicConfig['billing']['provider'] }) {
  const t = useT();
  return (
    <div className="mt-4 flex flex-col items-center gap-4">
      <TrustBadges provider={provider} />
      {provider === 'demo' ? (
        <p className="text-xs text-ink-500">{t('paywall.note.demo')}</p>
      ) : (
        <p className="text-xs text-ink-500">{t('paywall.note.renewal')}</p>
      )}
    </div>
  );
}
