import { useId, useState } from 'react';
import { hasCredits, hasFreeTrial, type User } from '@aidressup/contract';
import { ChevronDownIcon, UserIcon } from '../../../components/ui/icons';
import { useT, type Translate } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';

export interface UserInfoRow {
  label: string;
  value: string;
  testId: string;
}

/** The rows of the user-info box, in the page's language. */
export function userInfoRows(user: User, t: Translate): UserInfoRow[] {
  const yesNo = (v: boolean) => (v ? t('layout.userInfo.yes') : t('layout.userInfo.no'));
  return [
    { label: t('layout.userInfo.user'), value: user.id.slice(0, 8), testId: 'user-id' },
    { label: t('layout.userInfo.segment'), value: user.segment, testId: 'user-segment' },
    { label: t('layout.userInfo.credits'), value: String(user.credits), testId: 'user-credits' },
    {
      label: t('layout.userInfo.freeTrials'),
      value: `${user.free_trials_used} / ${user.free_trials_limit}`,
      testId: 'user-trials',
    },
    { label: t('layout.userInfo.hasFreeTrial'), value: yesNo(hasFreeTrial(user)), testId: 'user-has-free-trial' },
    { label: t('layout.userInfo.hasCredits'), value: yesNo(hasCredits(user)), testId: 'user-has-credits' },
  ];
}

/** Phones start with the box folded to one line; it opens with its toggle. */
const PHONE_QUERY = '(max-width: 639px)';

/**
 * The user-info box shown on every route. It floats with the navigation bar at the top
 * of the window, in its own space: the page flows below it, so it never covers a button or a link
 * at any width or scroll position. One line from 640 px up; folded to a summary on phones.
 */
export function UserInfoBox({ user, loading }: { user: User | null; loading: boolean }) {
  const [collapsed, setCollapsed] = useState(
    () => typeof window !== 'undefined' && !!window.matchMedia?.(PHONE_QUERY).matches,
  );
  const detailsId = useId();
  const t = useT();
  return (
    <aside
      aria-label={t('layout.userInfo.label')}
      data-testid="user-info-box"
      className="border-b border-ink-200/70 bg-white/90 text-xs backdrop-blur-md"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1 sm:px-6">
        <button
          type="button"
          onClick={() => setCollapsed((c) => !c)}
          aria-expanded={!collapsed}
          aria-controls={detailsId}
          className="-ms-1.5 inline-flex min-h-8 items-center gap-2 rounded-lg px-1.5 text-start font-semibold text-ink-900 hover:bg-ink-100"
          data-testid="user-info-toggle"
        >
          <span className="grid size-5 place-items-center rounded-full bg-brand-100 text-brand-700">
            <UserIcon className="size-3.5" />
          </span>
          <span>
            {/* Folded on a phone, the summary takes the line: the label stays for screen readers. */}
            <span className={cn(collapsed && user && 'sr-only sm:not-sr-only')}>{t('layout.userInfo.label')}</span>
            {collapsed && user ? (
              <span className="font-normal text-ink-600">
                <span className="hidden sm:inline"> · </span>
                <span className="font-mono font-medium text-ink-900">{user.id.slice(0, 8)}</span> ·{' '}
                {t('layout.userInfo.creditsCount', { credits: user.credits })} ·{' '}
                {t('layout.userInfo.trialsCount', { used: user.free_trials_used, limit: user.free_trials_limit })}
              </span>
            ) : null}
          </span>
          <ChevronDownIcon className={cn('size-4 text-ink-500 transition-transform', !collapsed && 'rotate-180')} />
        </button>
        <div id={detailsId} hidden={collapsed} className="min-w-0 basis-full pb-1 sm:basis-auto sm:pb-0">
          {user ? (
            <dl className="grid grid-cols-3 gap-x-3 gap-y-0.5 sm:flex sm:flex-wrap sm:gap-x-4">
              {userInfoRows(user, t).map((row) => (
                <div key={row.testId} className="flex min-w-0 flex-col sm:flex-row sm:items-baseline sm:gap-1.5">
                  <dt className="truncate text-[10px] text-ink-500 sm:text-xs">{row.label}</dt>
                  <dd className="font-mono font-medium text-ink-900" data-testid={row.testId}>
                    {row.value}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-ink-500" role="status">
              {loading ? t('layout.userInfo.signingIn') : t('layout.userInfo.notSignedIn')}
            </p>
          )}
        </div>
      </div>
    </aside>
  );
}
