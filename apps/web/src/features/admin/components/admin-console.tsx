import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { NavLink, Route, Routes } from 'react-router';
import { OPERATOR_SIGN_IN_MAX_AGE_HOURS, type User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { LockIcon, MailIcon, ShieldIcon } from '../../../components/ui/icons';
import { cn } from '../../../lib/cn';
import { getStats } from '../api/get-stats';
import { AdminAccessContext, accessAfter, type AdminAccess } from '../hooks/use-admin-access';
import { ErrorNote, Loading } from './admin-ui';
import { AuditPage } from './audit-page';
import { OverviewPage } from './overview-page';
import { MerchantPage } from './merchant-page';
import { MerchantsPage } from './merchants-page';
import { ReportsPage } from './reports-page';
import { UserPage } from './user-page';
import { UsersPage } from './users-page';

export interface AdminConsoleProps {
  /** The session's user; a new one (after an email sign-in) checks the access again. */
  user: User | null;
  /** Opens the product's email sign-in (the app owns it). */
  onSignIn: () => void;
}

const SECTIONS = [
  { to: '/admin', label: 'Overview', end: true },
  { to: '/admin/users', label: 'Users', end: false },
  { to: '/admin/reports', label: 'Reports', end: false },
  { to: '/admin/merchants', label: 'Merchants', end: false },
  { to: '/admin/audit', label: 'Audit log', end: false },
] as const;

function Gate({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section
      className="mx-auto max-w-lg rounded-3xl border border-ink-200 bg-white p-6 text-center shadow-sm sm:p-10"
      aria-labelledby="admin-gate-title"
      data-testid="admin-gate"
    >
      <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-600">{icon}</span>
      <h2 id="admin-gate-title" className="mt-5 text-xl font-bold text-ink-950">
        {title}
      </h2>
      <div className="mt-3 space-y-4 text-ink-600">{children}</div>
    </section>
  );
}

/**
 * The operator console (English only, by design: it is the team's tool). It first asks the API
 * whether this session may use it; 401 asks for an email sign-in (again after 12 hours), 403 says
 * the account is not an operator. Any later call answering 401 or 403 brings the same screens back.
 */
export function AdminConsole({ user, onSignIn }: AdminConsoleProps) {
  const [access, setAccess] = useState<AdminAccess>('checking');
  const [probeError, setProbeError] = useState<string | null>(null);
  const [probe, setProbe] = useState(0);

  const onAccessError = useCallback((e: unknown) => {
    const next = accessAfter(e);
    if (next) setAccess(next);
    return next !== null;
  }, []);

  useEffect(() => {
    if (!user) return;
    const ctrl = new AbortController();
    setProbeError(null);
    getStats(1, ctrl.signal).then(
      () => {
        if (!ctrl.signal.aborted) setAccess('ok');
      },
      (e: unknown) => {
        if (ctrl.signal.aborted) return;
        const next = accessAfter(e);
        if (next) setAccess(next);
        else setProbeError(e instanceof Error ? e.message : 'Could not reach the server.');
      },
    );
    return () => ctrl.abort();
  }, [user, probe]);

  let body: ReactNode;
  if (probeError && access !== 'ok') {
    body = <ErrorNote message={probeError} onRetry={() => setProbe((n) => n + 1)} />;
  } else if (access === 'checking') {
    body = <Loading label="Checking your operator access…" />;
  } else if (access === 'signin' || (access === 'forbidden' && !user?.email)) {
    body = (
      <Gate icon={<LockIcon className="size-7" />} title="Sign in to the operator console">
        <p>Operators sign in with their email address: we send a code to it.</p>
        <Button onClick={onSignIn} aria-haspopup="dialog" data-testid="admin-sign-in">
          <MailIcon className="size-4" />
          Sign in with email
        </Button>
      </Gate>
    );
  } else if (access === 'reauth') {
    body = (
      <Gate icon={<LockIcon className="size-7" />} title="Sign in again">
        <p>
          An operator’s email sign-in lasts {OPERATOR_SIGN_IN_MAX_AGE_HOURS} hours. Yours is older: ask for a fresh code
          to go on.
        </p>
        <Button onClick={onSignIn} aria-haspopup="dialog" data-testid="admin-sign-in">
          <MailIcon className="size-4" />
          Get a new code
        </Button>
      </Gate>
    );
  } else if (access === 'forbidden') {
    body = (
      <Gate icon={<ShieldIcon className="size-7" />} title="This account is not an operator">
        <p>
          You are signed in as <strong className="break-all text-ink-900">{user?.email}</strong>, which is not in the
          operators’ list.
        </p>
        <Button variant="secondary" onClick={onSignIn} aria-haspopup="dialog" data-testid="admin-sign-in">
          Sign in with another address
        </Button>
      </Gate>
    );
  } else {
    body = (
      <Routes>
        <Route index element={<OverviewPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="users/:id" element={<UserPage />} />
        <Route path="reports" element={<ReportsPage />} />
        <Route path="merchants" element={<MerchantsPage />} />
        <Route path="merchants/:id" element={<MerchantPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="*" element={<ErrorNote message="There is no such page in the console." />} />
      </Routes>
    );
  }

  return (
    <AdminAccessContext value={onAccessError}>
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10" data-testid="admin-console">
        <title>Operator console · AI Dress Up</title>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h1 className="flex items-center gap-2 text-3xl font-extrabold tracking-tight text-ink-950">
            <ShieldIcon className="size-7 text-brand-600" />
            Operator console
          </h1>
          {access === 'ok' && user?.email ? <p className="text-sm text-ink-500">Signed in as {user.email}</p> : null}
        </div>
        {access === 'ok' ? (
          <nav aria-label="Console" className="mt-5">
            <ul className="grid grid-cols-3 gap-1 rounded-2xl bg-ink-100 p-1 sm:inline-flex">
              {SECTIONS.map((s) => (
                <li key={s.to}>
                  <NavLink
                    to={s.to}
                    end={s.end}
                    className={({ isActive }) =>
                      cn(
                        'block rounded-xl px-1 py-2 text-center text-sm font-semibold whitespace-nowrap focus-visible:outline-3 focus-visible:outline-brand-500 sm:px-4',
                        isActive ? 'bg-white text-brand-700 shadow-sm' : 'text-ink-600 hover:text-ink-900',
                      )
                    }
                  >
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="mt-8">{body}</div>
      </div>
    </AdminAccessContext>
  );
}
