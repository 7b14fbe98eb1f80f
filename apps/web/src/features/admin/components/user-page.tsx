import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AdminLedgerEntry, AdminUserDetail } from '@aidressup/contract';
import { Button, buttonClasses } from '../../../components/ui/button';
import { CheckIcon, DownloadIcon } from '../../../components/ui/icons';
import { adjustCredits } from '../api/adjust-credits';
import { blockUser } from '../api/block-user';
import { getUser } from '../api/get-user';
import { unblockUser } from '../api/unblock-user';
import { useAdminData } from '../hooks/use-admin-data';
import { downloadCsv, toCsv } from '../utils/csv';
import { formatDateTime, formatDuration } from '../utils/format';
import { Badge, ErrorNote, Loading, Panel, Stat, TableScroll, tdClass, thClass } from './admin-ui';
import { ReasonDialog } from './reason-dialog';
import { ResultPreview } from './result-preview';

type Action = 'add' | 'remove' | 'block' | 'unblock';

function ledgerCsv(entries: AdminLedgerEntry[]): string {
  return toCsv(
    ['id', 'created_at', 'kind', 'unit', 'amount', 'balance_after', 'reason', 'tryon_id', 'grant_id', 'operator'],
    entries.map((e) => [
      e.id,
      e.created_at,
      e.kind,
      e.unit,
      e.amount,
      e.balance_after,
      e.reason,
      e.tryon_id,
      e.grant_id,
      e.actor?.email ?? e.actor?.id ?? null,
    ]),
  );
}

function Th({ children }: { children: string }) {
  return (
    <th scope="col" className={thClass}>
      {children}
    </th>
  );
}

function Ledger({ user }: { user: AdminUserDetail }) {
  return (
    <Panel
      title="Ledger"
      actions={
        <button
          type="button"
          className={buttonClasses('secondary', 'sm')}
          onClick={() => downloadCsv(`ledger-${user.id}.csv`, ledgerCsv(user.ledger))}
          disabled={user.ledger.length === 0}
          data-testid="ledger-csv"
        >
          <DownloadIcon className="size-4" />
          Export CSV
        </button>
      }
    >
      {user.ledger.length === 0 ? (
        <p className="text-sm text-ink-500">No credit movements.</p>
      ) : (
        <TableScroll label="Ledger">
          <table className="w-full" data-testid="ledger-table">
            <thead>
              <tr className="border-b border-ink-200">
                <Th>When</Th>
                <Th>Kind</Th>
                <Th>Amount</Th>
                <Th>Balance</Th>
                <Th>Reason</Th>
                <Th>Operator</Th>
              </tr>
            </thead>
            <tbody>
              {user.ledger.map((e) => (
                <tr key={e.id} className="border-b border-ink-100" data-testid="ledger-row">
                  <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(e.created_at)}</td>
                  <td className={tdClass}>
                    {e.kind}
                    {e.unit === 'free_trial' ? <span className="block text-xs text-ink-500">free trial</span> : null}
                  </td>
                  <td
                    className={`${tdClass} font-semibold tabular-nums ${e.amount < 0 ? 'text-red-700' : 'text-emerald-700'}`}
                  >
                    {e.amount > 0 ? `+${e.amount}` : e.amount}
                  </td>
                  <td className={`${tdClass} tabular-nums`}>{e.balance_after}</td>
                  <td className={`${tdClass} max-w-64 break-words`}>{e.reason ?? '–'}</td>
                  <td className={tdClass}>{e.actor ? (e.actor.email ?? e.actor.id) : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  );
}

function TryOns({ user }: { user: AdminUserDetail }) {
  return (
    <Panel title="Try-ons">
      {user.tryons.length === 0 ? (
        <p className="text-sm text-ink-500">No try-ons.</p>
      ) : (
        <TableScroll label="Try-ons">
          <table className="w-full" data-testid="tryons-table">
            <thead>
              <tr className="border-b border-ink-200">
                <Th>When</Th>
                <Th>Engine</Th>
                <Th>Status</Th>
                <Th>Cost</Th>
                <Th>Report</Th>
                <Th>Result</Th>
              </tr>
            </thead>
            <tbody>
              {user.tryons.map((t) => (
                <tr key={t.id} className="border-b border-ink-100" data-testid="tryon-row">
                  <td className={`${tdClass} whitespace-nowrap`}>
                    {formatDateTime(t.created_at)}
                    <span className="block text-xs text-ink-500">{t.category}</span>
                  </td>
                  <td className={tdClass}>
                    {t.engine}
                    <span className="block text-xs text-ink-500">{formatDuration(t.duration_ms)}</span>
                  </td>
                  <td className={tdClass}>
                    <Badge tone={t.status === 'succeeded' ? 'good' : t.status === 'failed' ? 'bad' : 'neutral'}>
                      {t.status}
                    </Badge>
                    {t.error_code ? <span className="block text-xs text-ink-500">{t.error_code}</span> : null}
                  </td>
                  <td className={`${tdClass} whitespace-nowrap`}>
                    {t.units}{' '}
                    {t.charge === 'trial'
                      ? t.units === 1
                        ? 'free trial'
                        : 'free trials'
                      : t.units === 1
                        ? 'credit'
                        : 'credits'}
                  </td>
                  <td className={tdClass}>
                    {t.report ? (
                      <>
                        <Badge
                          tone={
                            t.report.status === 'pending' ? 'warn' : t.report.status === 'refunded' ? 'good' : 'neutral'
                          }
                        >
                          {t.report.status}
                        </Badge>
                        <span className="block text-xs text-ink-500">{t.report.reason}</span>
                      </>
                    ) : (
                      '–'
                    )}
                  </td>
                  <td className={tdClass}>
                    <ResultPreview url={t.result_url} label={`the try-on of ${formatDateTime(t.created_at)}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  );
}

function Payments({ user }: { user: AdminUserDetail }) {
  const { grants, billing_events: events } = user.payments;
  return (
    <Panel title="Payments">
      {grants.length === 0 ? (
        <p className="text-sm text-ink-500">No credit grants.</p>
      ) : (
        <TableScroll label="Credit grants">
          <table className="w-full" data-testid="grants-table">
            <thead>
              <tr className="border-b border-ink-200">
                <Th>When</Th>
                <Th>Source</Th>
                <Th>Credits</Th>
                <Th>Left</Th>
                <Th>Paid</Th>
                <Th>Expires</Th>
              </tr>
            </thead>
            <tbody>
              {grants.map((g) => (
                <tr key={g.id} className="border-b border-ink-100">
                  <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(g.created_at)}</td>
                  <td className={tdClass}>
                    {g.source}
                    {g.plan_id ? <span className="block text-xs text-ink-500">{g.plan_id}</span> : null}
                  </td>
                  <td className={`${tdClass} tabular-nums`}>{g.amount}</td>
                  <td className={`${tdClass} tabular-nums`}>{g.remaining}</td>
                  <td className={`${tdClass} whitespace-nowrap`}>
                    {g.amount_paid ? `${g.amount_paid} ${g.currency ?? ''}` : '–'}
                  </td>
                  <td className={`${tdClass} whitespace-nowrap`}>
                    {g.expires_at ? formatDateTime(g.expires_at) : 'never'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {events.length > 0 ? (
        <>
          <h3 className="mt-6 text-sm font-semibold text-ink-700">Billing events</h3>
          <TableScroll label="Billing events">
            <table className="mt-2 w-full">
              <thead>
                <tr className="border-b border-ink-200">
                  <Th>When</Th>
                  <Th>Provider</Th>
                  <Th>Event</Th>
                  <Th>Processed</Th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id} className="border-b border-ink-100">
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(e.occurred_at ?? e.created_at)}</td>
                    <td className={tdClass}>{e.provider}</td>
                    <td className={tdClass}>
                      {e.event_type}
                      <span className="block font-mono text-xs text-ink-500">{e.event_id}</span>
                    </td>
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(e.processed_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : null}
    </Panel>
  );
}

const ACTION_TEXT: Record<Action, { title: string; description: string; confirm: string; done: string }> = {
  add: {
    title: 'Add credits',
    description: 'The credits never expire. The reason is kept in the ledger and the audit log.',
    confirm: 'Add credits',
    done: 'Credits added.',
  },
  remove: {
    title: 'Remove credits',
    description:
      'Taken from the account’s grants, never below zero. The reason is kept in the ledger and the audit log.',
    confirm: 'Remove credits',
    done: 'Credits removed.',
  },
  block: {
    title: 'Block this account',
    description: 'Its sessions and email sign-ins are refused until it is unblocked.',
    confirm: 'Block',
    done: 'Account blocked.',
  },
  unblock: {
    title: 'Unblock this account',
    description: 'The account can sign in and try on again.',
    confirm: 'Unblock',
    done: 'Account unblocked.',
  },
};

/** One account: balance, actions (each asking why), ledger, try-ons, payments and reports. */
export function UserPage() {
  const { id = '' } = useParams();
  const detail = useAdminData(`user:${id}`, (signal) => getUser(id, signal));
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState('');
  const user = detail.data;

  const run = async ({ reason, amount }: { reason: string; amount: number }) => {
    if (!action) return;
    if (action === 'add') await adjustCredits(id, { amount, reason });
    else if (action === 'remove') await adjustCredits(id, { amount: -amount, reason });
    else if (action === 'block') await blockUser(id, { reason });
    else await unblockUser(id, { reason });
    setDone(ACTION_TEXT[action].done);
    setAction(null);
    detail.reload();
  };

  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/users" className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
          ← Users
        </Link>
      </p>
      {detail.error ? <ErrorNote message={detail.error} onRetry={detail.reload} /> : null}
      {!user && detail.loading ? <Loading label="Loading the account…" /> : null}
      {user ? (
        <>
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div className="min-w-0">
              <h2 className="text-2xl font-extrabold tracking-tight break-words text-ink-950" data-testid="user-title">
                {user.email ?? 'Anonymous account'}
              </h2>
              <p className="mt-1 font-mono text-xs break-all text-ink-500">{user.id}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Badge tone="brand">{user.segment}</Badge>
                {user.blocked ? (
                  <Badge tone="bad">Blocked {user.blocked_at ? formatDateTime(user.blocked_at) : ''}</Badge>
                ) : null}
                {user.deleted_at ? <Badge tone="neutral">Deleted</Badge> : null}
                {user.merged_into ? <Badge tone="neutral">Merged into {user.merged_into}</Badge> : null}
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => setAction('add')} aria-haspopup="dialog" data-testid="add-credits">
                Add credits
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setAction('remove')}
                aria-haspopup="dialog"
                disabled={user.credits === 0}
              >
                Remove credits
              </Button>
              {user.blocked ? (
                <Button size="sm" variant="secondary" onClick={() => setAction('unblock')} aria-haspopup="dialog">
                  Unblock
                </Button>
              ) : (
                <Button size="sm" variant="danger" onClick={() => setAction('block')} aria-haspopup="dialog">
                  Block
                </Button>
              )}
            </div>
          </div>

          <p
            role="status"
            className={
              done
                ? 'flex items-center gap-2 rounded-2xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800'
                : 'sr-only'
            }
          >
            {done ? <CheckIcon className="size-4" /> : null}
            {done}
          </p>

          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label="Credits" value={user.credits} testId="admin-user-credits" />
            <Stat label="Free trials used" value={`${user.free_trials_used} / ${user.free_trials_limit}`} />
            <Stat label="Sessions" value={user.sessions.count} />
            <Stat
              label="Last seen"
              value={<span className="text-base">{formatDateTime(user.sessions.last_seen_at)}</span>}
            />
          </dl>
          <p className="text-sm text-ink-600">
            Created {formatDateTime(user.created_at)}
            {user.subscription
              ? ` · Plan ${user.subscription.plan_id ?? '–'} (${user.subscription.status ?? '–'}, until ${formatDateTime(user.subscription.period_end)})`
              : ' · No subscription'}
            {user.device_id ? (
              <>
                {' · Device '}
                <span className="font-mono text-xs">{user.device_id}</span>
              </>
            ) : null}
          </p>

          <Ledger user={user} />
          <TryOns user={user} />
          <Payments user={user} />
        </>
      ) : null}

      {action ? (
        <ReasonDialog
          key={action}
          title={ACTION_TEXT[action].title}
          description={ACTION_TEXT[action].description}
          confirmLabel={ACTION_TEXT[action].confirm}
          withAmount={action === 'add' || action === 'remove'}
          destructive={action === 'block' || action === 'remove'}
          onClose={() => setAction(null)}
          onConfirm={run}
        />
      ) : null}
    </div>
  );
}
