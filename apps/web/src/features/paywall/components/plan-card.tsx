import type { PublicPlan } from '@aidressup/contract';
import { CheckIcon } from '../../../components/ui/icons';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';
import { periodLabel, planCopy, validityLabel } from '../utils/paywall-copy';

export interface PlanCardProps {
  plan: PublicPlan;
  selected: boolean;
  name: string;
  onSelect: () => void;
  onChoose: () => void;
  busy: boolean;
}

export function PlanCard({ plan, selected, name, onSelect, onChoose, busy }: PlanCardProps) {
  const t = useT();
  const f = useFormat();
  const copy = planCopy(plan, t);
  const inputId = `plan-${plan.id}`;
  return (
    // The whole card is a larger target for the radio button inside it, which keyboards use.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      data-testid={`plan-${plan.id}`}
      data-selected={selected ? 'true' : 'false'}
      onClick={onSelect}
      className={cn(
        'relative flex cursor-pointer flex-col rounded-2xl border-2 bg-white p-5 transition-all',
        'has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-500',
        selected ? 'border-brand-600 shadow-xl shadow-brand-600/15' : 'border-ink-200 hover:border-brand-300',
      )}
    >
      {copy.badge ? (
        <span
          className={cn(
            'absolute inset-x-0 -top-3 mx-auto w-fit rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap text-white shadow',
            plan.popular ? 'bg-gradient-to-r from-brand-600 to-fuchsia-600' : 'bg-emerald-700',
          )}
        >
          {copy.badge}
        </span>
      ) : null}
      <div className="flex items-start justify-between gap-2">
        <label htmlFor={inputId} className="cursor-pointer text-base font-bold text-ink-950">
          {copy.name}
        </label>
        <input
          id={inputId}
          type="radio"
          name={name}
          value={plan.id}
          checked={selected}
          onChange={onSelect}
          className="mt-1 size-4 accent-brand-600"
        />
      </div>
      <p className="mt-3 flex items-baseline gap-1.5">
        <bdi className="text-3xl font-extrabold tracking-tight text-ink-950">{f.price(plan.priceValue)}</bdi>
        <span className="text-sm text-ink-500">{periodLabel(plan, t)}</span>
      </p>
      <p className="mt-1 text-sm font-semibold text-brand-700">{t('paywall.card.credits', { count: plan.credits })}</p>
      <p className="text-xs text-ink-500">{validityLabel(plan, t)}</p>
      <ul className="mt-4 flex-1 space-y-2 text-sm text-ink-700">
        {copy.features.map((feature, i) => (
          <li key={plan.features[i]} className="flex gap-2">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        disabled={busy}
        onClick={(e) => {
          e.stopPropagation();
          onSelect();
          onChoose();
        }}
        className={cn(
          'mt-5 h-10 rounded-xl text-sm font-semibold transition-colors disabled:opacity-50',
          selected ? 'bg-brand-600 text-white hover:bg-brand-700' : 'bg-ink-100 text-ink-900 hover:bg-ink-200',
        )}
      >
        {t('paywall.card.choose', { plan: copy.name })}
      </button>
    </div>
  );
}
