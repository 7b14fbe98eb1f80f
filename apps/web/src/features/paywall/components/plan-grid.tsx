import type { PublicPlan } from '@aidressup/contract';
import { useT } from '../../../i18n/use-t';
import { PlanCard } from './plan-card';

export interface PlanGridProps {
  plans: PublicPlan[];
  /** The id of the plan selected, or null. */
  selected: PublicPlan['id'] | null;
  /** The radio group's name. */
  name: string;
  onSelect: (planId: PublicPlan['id']) => void;
  /** A card's own button: checkout for that plan. */
  onChoose: (plan: PublicPlan) => void;
}

/** The plans as one radio group of cards. */
export function PlanGrid({ plans, selected, name, onSelect, onChoose }: PlanGridProps) {
  const t = useT();
  return (
    <fieldset className="mt-8">
      <legend className="sr-only">{t('paywall.plans.legend')}</legend>
      <div className="grid gap-5 pt-2 sm:grid-cols-2 lg:grid-cols-4">
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            name={name}
            selected={plan.id === selected}
            onSelect={() => onSelect(plan.id)}
            onChoose={() => onChoose(plan)}
            busy={false}
          />
        ))}
      </div>
    </fieldset>
  );
}
