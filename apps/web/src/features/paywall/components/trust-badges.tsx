import { BoltIcon, LockIcon, ShieldIcon } from '../../../components/ui/icons';

export function TrustBadges() {
  const badges = [
    { label: 'Secure Payment', Icon: ShieldIcon },
    { label: 'SSL Encrypted', Icon: LockIcon },
    { label: 'Instant Activation', Icon: BoltIcon },
  ];
  return (
    <ul
      className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-ink-600"
      aria-label="Why it is safe to pay"
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
