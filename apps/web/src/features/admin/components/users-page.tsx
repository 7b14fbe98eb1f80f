import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminUser } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { DownloadIcon } from '../../../components/ui/icons';
import { searchUsers } from '../api/search-users';
import { useAdminData } from '../hooks/use-admin-data';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { downloadCsv, toCsv } from '../utils/csv';
import { formatDateTime } from '../utils/format';
import { Badge, ErrorNote, inputClass, Loading, Panel, TableScroll, tdClass, thClass } from './admin-ui';

const SEARCH_DELAY_MS = 300;

function usersCsv(users: AdminUser[]): string {
  return toCsv(
    ['id', 'email', 'credits', 'free_trials_used', 'free_trials_limit', 'segment', 'created_at', 'blocked'],
    users.map((u) => [
      u.id,
      u.email,
      u.credits,
      u.free_trials_used,
      u.free_trials_limit,
      u.segment,
      u.created_at,
      u.blocked,
    ]),
  );
}

/** Users: search as you type (part of an email, an id or its start, a device id), then an account's page. */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const settled = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  const results = useAdminData(settled ? `users:${settled}` : null, (signal) => searchUsers(settled, signal));
  const searchId = useId();
  const hintId = useId();
  const users = settled ? results.data : null;

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-extrabold tracking-tight text-ink-950">Users</h2>
      <div role="search" className="max-w-xl">
        <label htmlFor={searchId} className="text-sm font-semibold text-ink-900">
          Find an account
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => setParams(e.target.value ? { q: e.target.value } : {}, { replace: true })}
          placeholder="Email, user id or device id"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={hintId}
          className={`${inputClass} mt-1.5`}
          data-testid="user-search"
          // The page is a search page: the field is what the operator came for.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
        />
        <p id={hintId} className="mt-1.5 text-xs text-ink-500">
          Results appear as you type: newest accounts first, at most 50.
        </p>
      </div>

      {results.error ? <ErrorNote message={results.error} onRetry={results.reload} /> : null}
      {settled && results.loading && !users ? <Loading label="Searching…" /> : null}
      {users ? (
        <Panel
          title={<span aria-live="polite">{users.length === 1 ? '1 account' : `${users.length} accounts`}</span>}
          actions={
            users.length > 0 ? (
              <button
                type="button"
                className={buttonClasses('secondary', 'sm')}
                onClick={() =>
                  downloadCsv(`users-${settled.replace(/[^\w.@-]+/g, '_').slice(0, 40)}.csv`, usersCsv(users))
                }
                data-testid="users-csv"
              >
                <DownloadIcon className="size-4" />
                Export CSV
              </button>
            ) : null
          }
        >
          {users.length === 0 ? (
            <p className="text-sm text-ink-500">No account matches “{settled}”.</p>
          ) : (
            <TableScroll label="Accounts found">
              <table className="w-full" data-testid="users-table">
                <thead>
                  <tr className="border-b border-ink-200">
                    <th scope="col" className={thClass}>
                      Account
                    </th>
                    <th scope="col" className={thClass}>
                      Credits
                    </th>
                    <th scope="col" className={thClass}>
                      Free trials
                    </th>
                    <th scope="col" className={thClass}>
                      Segment
                    </th>
                    <th scope="col" className={thClass}>
                      Created
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {users.map((u) => (
                    <tr key={u.id} className="border-b border-ink-100 hover:bg-ink-50" data-testid="user-row">
                      <td className={tdClass}>
                        <Link
                          to={`/admin/users/${encodeURIComponent(u.id)}`}
                          className="font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-brand-500"
                        >
                          {u.email ?? 'Anonymous'}
                        </Link>
                        <span className="block font-mono text-xs text-ink-500">{u.id}</span>
                        {u.blocked ? <Badge tone="bad">Blocked</Badge> : null}
                      </td>
                      <td className={`${tdClass} tabular-nums`}>{u.credits}</td>
                      <td className={`${tdClass} tabular-nums`}>
                        {u.free_trials_used} / {u.free_trials_limit}
                      </td>
                      <td className={tdClass}>{u.segment}</td>
                      <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(u.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </Panel>
      ) : null}
    </div>
  );
}
