import { hasFreeTrial, MESSAGES, type User } from '@aidressup/contract';
import { InfoIcon } from '../../../components/ui/icons';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { cn } from '../../../lib/cn';

/** Why this user has no free try-ons, when the server withheld them (the contract's English text); null otherwise. */
export function trialsWithheldMessage(user: User | null): string | null {
  if (!user || hasFreeTrial(user)) return null;
  if (user.free_trials_withheld === 'device') return MESSAGES.trialsUsedOnDevice;
  if (user.free_trials_withheld === 'network') return MESSAGES.trialsUsedOnNetwork;
  return null;
}

/** A small note that says why the free try-ons are used up for a user who never used them. */
export function TrialsWithheldNote({ user, className }: { user: User | null; className?: string }) {
  const localize = useLocalizeMessage();
  const message = trialsWithheldMessage(user);
  if (!message) return null;
  return (
    <p
      role="note"
      data-testid="trials-withheld"
      className={cn(
        'flex items-start gap-2 rounded-xl bg-amber-50 px-3 py-2 text-start text-sm text-amber-950 ring-1 ring-amber-200',
        className,
      )}
    >
      <InfoIcon className="mt-0.5 size-4 shrink-0 text-amber-700" />
      <span>{localize(message)}</span>
    </p>
  );
}
