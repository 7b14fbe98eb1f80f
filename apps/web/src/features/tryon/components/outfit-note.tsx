import { TRYONS_PER_OUTFIT, type User } from '@aidressup/contract';
import { AlertIcon, InfoIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { tooFewForOutfit, tryOnsLeft } from '../utils/outfit';

export interface OutfitNoteProps {
  user: User | null;
  /** Takes the bottom away (the top alone then uses one try-on). */
  onRemoveBottom: () => void;
  disabled?: boolean;
}

/** Shown while a bottom is added: a whole outfit uses two try-ons, and whether enough are left. */
export function OutfitNote({ user, onRemoveBottom, disabled }: OutfitNoteProps) {
  const t = useT();
  const short = tooFewForOutfit(user);
  const left = user ? tryOnsLeft(user) : 0;
  return (
    <div aria-live="polite" className="w-full max-w-md space-y-2 text-sm" data-testid="outfit-note">
      <p className="flex items-start gap-2 rounded-xl bg-brand-50 p-3 font-medium text-brand-900">
        <InfoIcon className="mt-0.5 size-4 shrink-0" />
        <span>{t('tryon.outfit.uses', { count: TRYONS_PER_OUTFIT })}</span>
      </p>
      {short ? (
        <div
          className="flex flex-col gap-2 rounded-xl bg-amber-50 p-3 text-amber-900 sm:flex-row sm:items-center"
          data-testid="outfit-short"
        >
          <p className="flex flex-1 items-start gap-2">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <span>{t('tryon.outfit.short', { count: left })}</span>
          </p>
          <button
            type="button"
            onClick={onRemoveBottom}
            disabled={disabled}
            className="inline-flex h-9 shrink-0 items-center justify-center rounded-lg bg-white px-3 font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset hover:bg-amber-100 disabled:opacity-60"
            data-testid="outfit-remove-bottom"
          >
            {t('tryon.outfit.removeBottom')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
