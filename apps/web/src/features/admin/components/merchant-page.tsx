import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AdminMerchantDetailResponse, Merchant } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { adjustMerchantCredits } from '../api/adjust-merchant-credits';
import { getMerchant } from '../api/get-merchant';
import { rotateMerchantKeys } from '../api/rotate-merchant-keys';
import { updateMerchant } from '../api/update-merchant';
import { useAdminData } from '../hooks/use-admin-data';
import { formatDateTime, formatNumber } from '../utils/format';
import { Badge, ErrorNote, Loading, Panel, Stat, TableScroll, tdClass, thClass } from './admin-ui';
import { ProductPhotoRefusals } from './product-photo-refusals';
import { ReasonDialog } from './reason-dialog';
import { SecretKeyNote } from './secret-key-note';
import { parseOrigins } from './merchants-page';

type Action = 'add' | 'remove' | 'rotate-secret' | 'rotate-publishable' | 'origins';

const ACTION_TEXT: Record<Action, { title: string; description: string; confirm: string }> = {
  add: {
    title: 'Add credits',
    description:
      'Credits the shop’s shoppers spend on try-ons (one each). The reason goes to the ledger and the audit log.',
    confirm: 'Add credits',
  },
  remove: {
    title: 'Remove credits',
    description: 'Takes credits back, never below zero. The reason goes to the ledger and the audit log.',
    confirm: 'Remove credits',
  },
  'rotate-secret': {
    title: 'New secret key',
    description: 'The old secret key stops working at once. The new one is shown once.',
    confirm: 'Make a new secret key',
  },
  'rotate-publishable': {
    title: 'New publishable key',
    description:
      'The shop’s snippet must change to the new key: the old one stops opening the widget at once (open sessions end within 30 minutes).',
    confirm: 'Make a new publishable key',
  },
  origins: {
    title: 'Allowed origins',
    description: 'The sites that may show the widget, one per line, like https://shop.example (no path).',
    confirm: 'Save origins',
  },
};

function Th({ children }: { children: string }) {
  return (
    <th scope="col" className={thClass}>
      {children}
    </th>
  );
}

/** A merchant's page: keys, origins, credits, try-ons per day, refused product photos and results per shopper session. */
export function MerchantPage() {
  const { id = '' } = useParams();
  const detail = useAdminData<AdminMerchantDetailResponse>(`merchant:${id}`, (signal) => getMerchant(id, signal));
  const [action, setAction] = useState<Action | null>(null);
  const [newKey, setNewKey] = useState<{ secretKey: string | null; publishableKey: string } | null>(null);

  const replace = (merchant: Merchant) => detail.setData((d) => ({ ...d, merchant }));

  const run = async (input: { reason: string; amount: number; text?: string }) => {
    if (!action) return;
    if (action === 'add' || action === 'remove') {
      replace(
        await adjustMerchantCredits(id, {
          amount: action === 'add' ? input.amount : -input.amount,
          reason: input.reason,
        }),
      );
    } else if (action === 'origins') {
      replace(await updateMerchant(id, { allowedOrigins: parseOrigins(input.text ?? ''), reason: input.reason }));
    } else {
      const rotated = await rotateMerchantKeys(id, {
        key: action === 'rotate-secret' ? 'secret' : 'publishable',
        reason: input.reason,
      });
      replace(rotated.merchant);
      setNewKey({ secretKey: rotated.secretKey, publishableKey: rotated.merchant.publishableKey });
    }
    setAction(null);
  };

  if (detail.error) return <ErrorNote message={detail.error} onRetry={detail.reload} />;
  if (!detail.data) return <Loading />;
  const { merchant: m, usage, sessions, refusedProductPhotos } = detail.data;

  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/merchants" className="text-sm font-semibold text-brand-700 hover:underline">
          ← All merchants
        </Link>
      </p>
      <Panel
        title={<span data-testid="merchant-title">{m.name}</span>}
        actions={
          <>
            <Button size="sm" onClick={() => setAction('add')}>
              Add credits
            </Button>
            <Button size="sm" variant="danger" onClick={() => setAction('remove')}>
              Remove credits
            </Button>
          </>
        }
      >
        {m.outOfCreditsSince ? (
          <p role="status" className="mb-4">
            <Badge tone="bad">Out of credits since {formatDateTime(m.outOfCreditsSince)}</Badge>{' '}
            <span className="text-sm text-ink-700">
              {formatNumber(m.refusedNoCredits)} try-ons refused for want of credits so far.
            </span>
          </p>
        ) : null}
        <dl className="grid gap-3 sm:grid-cols-3">
          <Stat label="Credits" value={<span data-testid="merchant-credits">{formatNumber(m.credits)}</span>} />
          <Stat label="Daily cap (shop)" value={formatNumber(m.dailyLimit)} />
          <Stat label="Daily cap (shopper)" value={formatNumber(m.shopperDailyLimit)} />
        </dl>
        <dl className="mt-5 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold text-ink-600">Publishable key</dt>
          <dd className="font-mono break-all text-ink-900">{m.publishableKey}</dd>
          <dt className="font-semibold text-ink-600">Secret key</dt>
          <dd className="text-ink-700">
            Stored hashed{m.keysRotatedAt ? `; keys last rotated ${formatDateTime(m.keysRotatedAt)}` : ''}
          </dd>
          <dt className="font-semibold text-ink-600">Allowed origins</dt>
          <dd className="font-mono text-ink-900">
            {m.allowedOrigins.map((o) => (
              <span key={o} className="block">
                {o}
              </span>
            ))}
          </dd>
          <dt className="font-semibold text-ink-600">Created</dt>
          <dd className="text-ink-700">{formatDateTime(m.createdAt)}</dd>
        </dl>
        <div className="mt-5 flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => setAction('origins')}>
            Change origins
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setAction('rotate-secret')}>
            New secret key
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setAction('rotate-publishable')}>
            New publishable key
          </Button>
        </div>
        {newKey ? (
          <div className="mt-5">
            <SecretKeyNote
              merchantName={m.name}
              secretKey={newKey.secretKey}
              publishableKey={newKey.publishableKey}
              onDone={() => setNewKey(null)}
            />
          </div>
        ) : null}
      </Panel>

      <Panel title="Try-ons per day (UTC, last 30 days)">
        {usage.length === 0 ? (
          <p className="text-sm text-ink-600">No try-on yet.</p>
        ) : (
          <TableScroll label="Try-ons per day">
            <table className="w-full min-w-[32rem] border-collapse" data-testid="merchant-usage">
              <thead>
                <tr className="border-b border-ink-200">
                  <Th>Day</Th>
                  <Th>Try-ons</Th>
                  <Th>Results</Th>
                  <Th>Refunded</Th>
                  <Th>Shopper sessions</Th>
                </tr>
              </thead>
              <tbody>
                {usage.map((d) => (
                  <tr key={d.day} className="border-b border-ink-100">
                    <td className={`${tdClass} whitespace-nowrap`}>{d.day}</td>
                    <td className={`${tdClass} tabular-nums`}>{d.tryOns}</td>
                    <td className={`${tdClass} tabular-nums`}>{d.succeeded}</td>
                    <td className={`${tdClass} tabular-nums`}>{d.refunded}</td>
                    <td className={`${tdClass} tabular-nums`}>{d.sessions}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Panel>

      <ProductPhotoRefusals items={refusedProductPhotos} />

      <Panel title="Latest shopper sessions">
        {sessions.length === 0 ? (
          <p className="text-sm text-ink-600">No shopper has opened the widget yet.</p>
        ) : (
          <TableScroll label="Shopper sessions">
            <table className="w-full min-w-[32rem] border-collapse" data-testid="merchant-sessions">
              <thead>
                <tr className="border-b border-ink-200">
                  <Th>Opened</Th>
                  <Th>Page origin</Th>
                  <Th>Try-ons</Th>
                  <Th>Results</Th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr key={s.id} className="border-b border-ink-100">
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(s.createdAt)}</td>
                    <td className={`${tdClass} font-mono text-xs`}>{s.origin}</td>
                    <td className={`${tdClass} tabular-nums`}>{s.tryOns}</td>
                    <td className={`${tdClass} tabular-nums`}>{s.results}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Panel>

      {action ? (
        <ReasonDialog
          key={action}
          title={ACTION_TEXT[action].title}
          description={ACTION_TEXT[action].description}
          confirmLabel={ACTION_TEXT[action].confirm}
          withAmount={action === 'add' || action === 'remove'}
          withText={action === 'origins' ? { label: 'Origins', initial: m.allowedOrigins.join('\n') } : undefined}
          destructive={action === 'remove' || action === 'rotate-publishable'}
          onClose={() => setAction(null)}
          onConfirm={run}
        />
      ) : null}
    </div>
  );
}
