import { useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { User } from '@aidressup/contract';
import { GalleryIcon, GlobeIcon, MenuIcon, UserIcon, XIcon } from '../../../components/ui/icons';
import { cn } from '../../../lib/cn';
import { BrandMark } from './brand-logo';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold transition-colors',
    isActive ? 'bg-brand-50 text-brand-700' : 'text-ink-700 hover:bg-ink-100 hover:text-ink-950',
  );

export interface NavBarProps {
  /** The session's user: signed in by email, the nav shows the account instead of Sign In. */
  user: User | null;
  onSignIn: () => void;
}

/**
 * Top navigation: AI Dress Up, My Gallery, ENGLISH, Sign In, and the mobile menu.
 * Signed in by email, Sign In becomes a link to the account page showing the address.
 */
export function NavBar({ user, onSignIn }: NavBarProps) {
  const email = user?.email ?? null;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();

  useEffect(() => setMenuOpen(false), [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="border-b border-ink-200/70 bg-white/85 backdrop-blur-md">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2.5 rounded-lg text-lg font-extrabold tracking-tight text-ink-950"
          aria-label="AI Dress Up, home"
        >
          <BrandMark className="size-8" />
          <span>AI Dress Up</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/gallery" className={navLinkClass}>
            <GalleryIcon className="size-4" />
            My Gallery
          </NavLink>
          {email ? null : (
            <NavLink to="/account" className={navLinkClass}>
              Account
            </NavLink>
          )}
          <button
            type="button"
            className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-ink-700 hover:bg-ink-100"
            aria-label="Language: English"
            title="English is the only language available"
          >
            <GlobeIcon className="size-4" />
            ENGLISH
          </button>
          {email ? (
            <NavLink
              to="/account"
              className={(s) => cn(navLinkClass(s), 'ml-2 max-w-64 ring-1 ring-ink-200 ring-inset')}
              aria-label={`Account, signed in as ${email}`}
              data-testid="nav-account"
            >
              <UserIcon className="size-4 shrink-0" />
              <span className="truncate">{email}</span>
            </NavLink>
          ) : (
            <button
              type="button"
              onClick={onSignIn}
              className="ml-2 inline-flex h-10 items-center gap-2 rounded-xl bg-ink-950 px-4 text-sm font-semibold text-white hover:bg-ink-800"
            >
              <UserIcon className="size-4" />
              Sign In
            </button>
          )}
        </div>

        <button
          type="button"
          className="grid size-11 place-items-center rounded-xl text-ink-800 hover:bg-ink-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <XIcon className="size-6" /> : <MenuIcon className="size-6" />}
        </button>
      </nav>

      <div id={menuId} hidden={!menuOpen} className="border-t border-ink-200 bg-white md:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3" aria-label="Mobile menu">
          <li>
            <NavLink to="/" end className={(s) => cn(navLinkClass(s), 'w-full py-3 text-base')}>
              AI Dress Up
            </NavLink>
          </li>
          <li>
            <NavLink to="/gallery" className={(s) => cn(navLinkClass(s), 'w-full py-3 text-base')}>
              <GalleryIcon className="size-5" />
              My Gallery
            </NavLink>
          </li>
          <li>
            <button
              type="button"
              className="flex w-full items-center gap-2 rounded-lg px-3 py-3 text-left text-base font-semibold text-ink-700 hover:bg-ink-100"
              aria-label="Language: English"
            >
              <GlobeIcon className="size-5" />
              ENGLISH
            </button>
          </li>
          <li>
            <NavLink to="/account" className={(s) => cn(navLinkClass(s), 'w-full min-w-0 py-3 text-base')}>
              <UserIcon className="size-5 shrink-0" />
              <span className="min-w-0">
                Account
                {email ? (
                  <span className="block truncate text-sm font-normal text-ink-500">Signed in as {email}</span>
                ) : null}
              </span>
            </NavLink>
          </li>
          {email ? null : (
            <li>
              <button
                type="button"
                onClick={() => {
                  setMenuOpen(false);
                  onSignIn();
                }}
                className="mt-1 flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-ink-950 text-base font-semibold text-white hover:bg-ink-800"
              >
                <UserIcon className="size-5" />
                Sign In
              </button>
            </li>
          )}
        </ul>
      </div>
    </header>
  );
}
