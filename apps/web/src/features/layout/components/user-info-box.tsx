import { useEffect, useId, useRef, useState } from 'react';
import { hasCredits, hasFreeTrial, type User } from '@aidressup/contract';
import { ChevronDownIcon, UserIcon } from '../../../components/ui/icons';
import { useT, type Translate } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';

export interface UserInfoRow {
  label: string;
  value: string;
  testId: string;
  /** Ids and numbers read left to right in every language; words take the direction of their own script. */
  dir: 'ltr' | 'auto';
}

/** The rows of the user-info box (the specification's fields), labelled in the page's language. */
function userInfoRows(user: User, t: Translate): UserInfoRow[] {
  const yesNo = (v: boolean) => (v ? t('layout.userInfo.yes') : t('layout.userInfo.no'));
  return [
    { label: t('layout.userInfo.user'), value: user.id.slice(0, 8), testId: 'user-id', dir: 'ltr' },
    { label: t('layout.userInfo.segment'), value: user.segment, testId: 'user-segment', dir: 'ltr' },
    { label: t('layout.userInfo.credits'), value: String(user.credits), testId: 'user-credits', dir: 'ltr' },
    {
      label: t('layout.userInfo.freeTrials'),
      value: `${user.free_trials_used} / ${user.free_trials_limit}`,
      testId: 'user-trials',
      dir: 'ltr',
    },
    {
      label: t('layout.userInfo.hasFreeTrial'),
      value: yesNo(hasFreeTrial(user)),
      testId: 'user-has-free-trial',
      dir: 'auto',
    },
    { label: t('layout.userInfo.hasCredits'), value: yesNo(hasCredits(user)), testId: 'user-has-credits', dir: 'auto' },
  ];
}

/**
 * `?debug=1` in the address opens the box with every field shown (for support and testing); any
 * other visit starts with the small chip.
 */
export function debugRequested(search: string): boolean {
  return new URLSearchParams(search).get('debug') === '1';
}

/**
 * The user-info box shown on every route, in its own strip under the navigation bar (so it never
 * covers the page). It starts as a small chip with the credits and free trials left; the chip is a
 * button (aria-expanded) that opens the full list of the specification's fields. Every value is
 * bidi-isolated, so ids and counts keep their order in right-to-left languages.
 */
export function UserInfoBox({ user, loading }: { user: User | null; loading: boolean }) {
  const [expanded, setExpanded] = useState(
    () => typeof window !== 'undefined' && debugRequested(window.location.search),
  );
  const detailsId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const t = useT();
  // Escape closes the open details (unless a dialog above takes it), focus back on their button.
  useEffect(() => {
    if (!expanded) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[role="dialog"]')) return;
      setExpanded(false);
      toggleRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [expanded]);
  const trialsLeft = user ? Math.max(0, user.free_trials_limit - user.free_trials_used) : 0;
  return (
    <aside
      aria-label={t('layout.userInfo.label')}
      data-testid="user-info-box"
      className="border-b border-ink-200/70 bg-white/90 text-xs backdrop-blur-md"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-end gap-x-4 gap-y-1 px-4 py-1 sm:px-6">
        <button
          ref={toggleRef}
          type="button"
          onClick={() => setExpanded((e) => !e)}
          aria-expanded={expanded}
          aria-controls={detailsId}
          className="inline-flex min-h-8 max-w-full items-center gap-1.5 rounded-full border border-ink-200 bg-white px-2.5 text-start font-medium text-ink-700 hover:bg-ink-50 hover:text-ink-950"
          data-testid="user-info-toggle"
        >
          <UserIcon className="size-3.5 shrink-0 text-brand-600" />
          <span className="sr-only">{t('layout.userInfo.label')}</span>
          {user ? (
            <span className="truncate" data-testid="user-info-summary">
              <bdi>{t('layout.userInfo.creditsCount', { credits: user.credits })}</bdi>
              <span aria-hidden="true"> · </span>
              <bdi>{t('layout.userInfo.trialsLeft', { count: trialsLeft })}</bdi>
            </span>
          ) : (
            <span role="status" className="text-ink-500">
              {loading ? t('layout.userInfo.starting') : t('layout.userInfo.notSignedIn')}
            </span>
          )}
          <ChevronDownIcon
            className={cn('size-4 shrink-0 text-ink-500 transition-transform', expanded && 'rotate-180')}
          />
        </button>
        <div id={detailsId} hidden={!expanded} className="min-w-0 basis-full pb-1">
          {user ? (
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:flex sm:flex-wrap sm:justify-end sm:gap-x-5">
              {userInfoRows(user, t).map((row) => (
                <div key={row.testId} className="flex min-w-0 items-baseline gap-1.5">
                  <dt className="text-ink-500">{row.label}</dt>
                  <dd className="font-mono font-medium text-ink-900 [unicode-bidi:isolate]">
                    <bdi dir={row.dir} data-testid={row.testId}>
                      {row.value}
                    </bdi>
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
        </div>
      </div>
    </aside>
  );
}
