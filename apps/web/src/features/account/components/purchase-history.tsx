import type { Purchase } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useAccountFormat } from '../utils/format';
import { InlineError, SectionCard } from './section-card';

export interface PurchaseHistoryProps {
  items: Purchase[] | null;
  error: string | null;
  errorCode?: string | null;
  retry: () => void;
}

/** The user's purchases: plan, credits, amount, date, expiry, refunds. */
export function PurchaseHistory({ items, error, errorCode, retry }: PurchaseHistoryProps) {
  const f = useAccountFormat();
  const { t } = f;
  return (
    <SectionCard title={t('account.history.title')} testId="purchase-history" className="lg:col-span-2">
      {error ? (
        <>
          <InlineError message={error} code={errorCode} />
          <Button variant="secondary" size="sm" className="mt-3" onClick={retry}>
            {t('account.history.retry')}
          </Button>
        </>
      ) : items === null ? (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-ink-500">
          <Spinner className="size-4 text-brand-600" />
          {t('account.history.loading')}
        </p>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600" data-testid="purchase-history-empty">
          {t('account.history.empty')}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-ink-100">
          {items.map((p) => {
            const amount = f.amount(p.amount, p.currency);
            const expires = f.date(p.expiresAt);
            const date = f.date(p.createdAt) ?? '';
            return (
              <li
                key={p.id}
                className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3"
                data-testid="purchase"
              >
                <div className="min-w-0">
                  <p className="font-semibold text-ink-950">
                    {f.planName(p.planId)}
                    {p.source === 'demo' ? (
                      <span className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 align-middle text-xs font-semibold text-amber-900">
                        {t('account.history.demo')}
                      </span>
                    ) : null}
                    {p.refunded ? (
                      <span className="ms-2 rounded-full bg-red-100 px-2 py-0.5 align-middle text-xs font-semibold text-red-800">
                        {t('account.history.refunded')}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-ink-600">
                    {expires
                      ? t('account.history.validUntil', { date, credits: p.credits, expires })
                      : t('account.history.neverExpire', { date, credits: p.credits })}
                  </p>
                </div>
                <p className="font-semibold text-ink-950">
                  <bdi>{amount ?? '—'}</bdi>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </SectionCard>
  );
}
