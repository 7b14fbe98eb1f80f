import { useState } from 'react';
import { hasCredits, hasFreeTrial, type User } from '@aidressup/contract';
import { ChevronDownIcon, UserIcon } from '../../../components/ui/icons';
import { cn } from '../../../lib/cn';

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

export interface UserInfoRow {
  label: string;
  value: string;
  testId: string;
}

/** The rows of the user-info box (spec §2). */
export function userInfoRows(user: User): UserInfoRow[] {
  return [
    { label: 'User', value: user.id.slice(0, 8), testId: 'user-id' },
    { label: 'Segment', value: user.segment, testId: 'user-segment' },
    { label: 'Credits', value: String(user.credits), testId: 'user-credits' },
    { label: 'Free trials', value: `${user.free_trials_used} / ${user.free_trials_limit}`, testId: 'user-trials' },
    { label: 'Has free trial', value: yesNo(hasFreeTrial(user)), testId: 'user-has-free-trial' },
    { label: 'Has credits', value: yesNo(hasCredits(user)), testId: 'user-has-credits' },
  ];
}

/** Floating user-info box shown on every route: a slim bar on phones, a card from 640 px up. */
export function UserInfoBox({ user, loading }: { user: User | null; loading: boolean }) {
  const [collapsed, setCollapsed] = useState(false);
  return (
    <aside
      aria-label="Your account"
      data-testid="user-info-box"
      className="fixed inset-x-2 bottom-2 z-30 rounded-2xl border border-ink-200 bg-white/95 text-xs shadow-xl shadow-ink-900/10 backdrop-blur sm:inset-x-auto sm:bottom-5 sm:left-5 sm:w-[13.5rem]"
    >
      <button
        type="button"
        onClick={() => setCollapsed((c) => !c)}
        aria-expanded={!collapsed}
        className={cn(
          'flex w-full items-center gap-2 rounded-2xl px-3 text-left font-semibold text-ink-900',
          collapsed ? 'py-2' : 'py-1.5 sm:py-2.5',
        )}
      >
        <span className="grid size-5 place-items-center rounded-full bg-brand-100 text-brand-700 sm:size-6">
          <UserIcon className="size-3.5" />
        </span>
        <span className="flex-1">
          Your account
          {collapsed && user ? <span className="ml-1 font-normal text-ink-500">· {user.credits} credits</span> : null}
        </span>
        <ChevronDownIcon className={cn('size-4 text-ink-500 transition-transform', collapsed && 'rotate-180')} />
      </button>
      {!collapsed ? (
        <div className="border-t border-ink-100 px-3 pt-1.5 pb-2 sm:pt-2 sm:pb-3">
          {user ? (
            <dl className="grid grid-cols-3 gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
              {userInfoRows(user).map((row) => (
                <div key={row.testId} className="flex min-w-0 flex-col sm:contents">
                  <dt className="truncate text-[10px] text-ink-500 sm:text-xs">{row.label}</dt>
                  <dd className="font-mono font-medium text-ink-900 sm:text-right" data-testid={row.testId}>
                    {row.value}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-ink-500" role="status">
              {loading ? 'Signing you in…' : 'Not signed in'}
            </p>
          )}
        </div>
      ) : null}
    </aside>
  );
}
