import type { Purchase } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatAmount, formatDate, planName } from '../utils/format';
import { InlineError, SectionCard } from './section-card';

export interface PurchaseHistoryProps {
  items: Purchase[] | null;
  error: string | null;
  retry: () => void;
}

/** The user's purchases: plan, credits, amount, date, expiry, refunds. */
export function PurchaseHistory({ items, error, retry }: PurchaseHistoryProps) {
  return (
    <SectionCard title="Purchase history" testId="purchase-history" className="lg:col-span-2">
      {error ? (
        <>
          <InlineError message={error} />
          <Button variant="secondary" size="sm" className="mt-3" onClick={retry}>
            Try again
          </Button>
        </>
      ) : items === null ? (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-ink-500">
          <Spinner className="size-4 text-brand-600" />
          Loading your purchases…
        </p>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600" data-testid="purchase-history-empty">
          No purchases yet.
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-ink-100">
          {items.map((p) => {
            const amount = formatAmount(p.amount, p.currency);
            const expires = formatDate(p.expiresAt);
            return (
              <li
                key={p.id}
                className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3"
                data-testid="purchase"
              >
                <div className="min-w-0">
                  <p className="font-semibold text-ink-950">
                    {planName(p.planId)}
                    {p.source === 'demo' ? (
                      <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 align-middle text-xs font-semibold text-amber-900">
                        Demo
                      </span>
                    ) : null}
                    {p.refunded ? (
                      <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 align-middle text-xs font-semibold text-red-800">
                        Refunded
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-ink-600">
                    {formatDate(p.createdAt)} · {p.credits} credits,{' '}
                    {expires ? `valid until ${expires}` : 'never expire'}
                  </p>
                </div>
                <p className="font-semibold text-ink-950">{amount ?? '—'}</p>
              </li>
            );
          })}
        </ul>
      )}
    </SectionCard>
  );
}
