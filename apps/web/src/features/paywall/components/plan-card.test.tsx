import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { PLANS, type PublicPlan } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import { PlanCard } from './plan-card';

const plans: PublicPlan[] = PLANS.map((p) => ({ ...p, paddlePriceId: null }));

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

const renderCard = (plan: PublicPlan) =>
  render(<PlanCard plan={plan} selected={false} name="plans" onSelect={vi.fn()} onChoose={vi.fn()} busy={false} />);

describe('plan card', () => {
  it.each(plans.map((p) => [p.id, p] as const))('renders %s with the contract’s English texts', (_, plan) => {
    renderCard(plan);
    const card = screen.getByTestId(`plan-${plan.id}`);
    expect(screen.getByRole('radio', { name: plan.name })).toBeTruthy();
    expect(card.textContent).toContain(plan.price);
    expect(card.textContent).toContain(`${plan.credits} credits`);
    if (plan.badge) expect(card.textContent).toContain(plan.badge);
    const features = [...card.querySelectorAll('li')].map((li) => li.textContent);
    expect(features).toEqual(plan.features);
    expect(screen.getByRole('button', { name: `Choose ${plan.name}` })).toBeTruthy();
  });

  it('renders the plan in German, its price written the German way', async () => {
    await act(() => activateLocale('de'));
    renderCard(plans.find((p) => p.id === 'monthly')!);
    const card = screen.getByTestId('plan-monthly');
    expect(screen.getByRole('radio', { name: 'Monats-Pro' })).toBeTruthy();
    expect(card.textContent).toContain('9,99\u00a0$');
    expect(card.textContent).toContain('50 Credits');
    expect(card.textContent).toContain('Credits 30 Tage gültig');
    expect(card.textContent).toContain('Am beliebtesten');
  });
});
