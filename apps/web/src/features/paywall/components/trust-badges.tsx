import { BoltIcon, LockIcon, ShieldIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';

export function TrustBadges() {
  const t = useT();
  const badges = [
    { label: t('paywall.trust.secure'), Icon: ShieldIcon },
    { label: t('paywall.trust.ssl'), Icon: LockIcon },
    { label: t('paywall.trust.instant'), Icon: BoltIcon },
  ];
  return (
    <ul
      className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-ink-600"
      aria-label={t('paywall.trust.label')}
    >
      {badges.map(({ label, Icon }) => (
        <li key={label} className="flex items-center gap-1.5">
          <Icon className="size-4 text-emerald-600" />
          {label}
        </li>
      ))}
    </ul>
  );
}
