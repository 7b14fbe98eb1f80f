import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { User } from '@aidressup/contract';
import { GalleryIcon, MenuIcon, UserIcon, XIcon } from '../../../components/ui/icons';
import { LanguageMenu } from '../../../i18n/language-menu';
import { rich, useT } from '../../../i18n/use-t';
import { isolateLtr } from '../../../i18n/format';
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
 * Top navigation: AI Dress Up, My Gallery, the language (ENGLISH), Sign In, and the mobile menu.
 * Signed in by email, Sign In becomes a link to the account page showing the address.
 */
export function NavBar({ user, onSignIn }: NavBarProps) {
  const t = useT();
  const email = user?.email ?? null;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
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
      <nav
        aria-label={t('common.nav.label')}
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6"
      >
        <Link
          to="/"
          className="flex items-center gap-2.5 rounded-lg text-lg font-extrabold tracking-tight text-ink-950"
          aria-label={t('common.nav.home')}
        >
          <BrandMark className="size-8" />
          <span>{t('common.brand')}</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/gallery" className={navLinkClass}>
            <GalleryIcon className="size-4" />
            {t('common.nav.gallery')}
          </NavLink>
          {email ? null : (
            <NavLink to="/account" className={navLinkClass}>
              {t('common.nav.account')}
            </NavLink>
          )}
          <LanguageMenu variant="bar" />
          {email ? (
            <NavLink
              to="/account"
              className={(s) => cn(navLinkClass(s), 'ms-2 max-w-64 ring-1 ring-ink-200 ring-inset')}
              aria-label={t('common.nav.accountSignedIn', { email: isolateLtr(email) })}
              data-testid="nav-account"
            >
              <UserIcon className="size-4 shrink-0" />
              {/* An address reads left to right in every language, cut at its own end. */}
              <bdi dir="ltr" className="truncate">
                {email}
              </bdi>
            </NavLink>
          ) : (
            <button
              type="button"
              onClick={onSignIn}
              className="ms-2 inline-flex h-10 items-center gap-2 rounded-xl bg-ink-950 px-4 text-sm font-semibold text-white hover:bg-ink-800"
            >
              <UserIcon className="size-4" />
              {t('common.nav.signIn')}
            </button>
          )}
        </div>

        <button
          ref={toggleRef}
          type="button"
          className="grid size-11 place-items-center rounded-xl text-ink-800 hover:bg-ink-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? t('common.nav.closeMenu') : t('common.nav.openMenu')}
          onClick={() => setMenuOpen((o) => !o)}
        >
          {menuOpen ? <XIcon className="size-6" /> : <MenuIcon className="size-6" />}
        </button>
      </nav>

      <div id={menuId} hidden={!menuOpen} className="border-t border-ink-200 bg-white md:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3" aria-label={t('common.nav.mobileMenu')}>
          <li>
            <NavLink to="/" end className={(s) => cn(navLinkClass(s), 'w-full py-3 text-base')}>
              {t('common.brand')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/gallery" className={(s) => cn(navLinkClass(s), 'w-full py-3 text-base')}>
              <GalleryIcon className="size-5" />
              {t('common.nav.gallery')}
            </NavLink>
          </li>
          <li>
            <LanguageMenu
              variant="inline"
              onChosen={() => {
                // The choice is made: the menu closes, and focus goes back to its button.
                setMenuOpen(false);
                toggleRef.current?.focus();
              }}
            />
          </li>
          <li>
            <NavLink to="/account" className={(s) => cn(navLinkClass(s), 'w-full min-w-0 py-3 text-base')}>
              <UserIcon className="size-5 shrink-0" />
              <span className="min-w-0">
                {t('common.nav.account')}
                {email ? (
                  <span className="block text-sm font-normal text-ink-500">
                    {rich(t('common.nav.signedInAs', { email }), {
                      // The address on a line of its own, left to right, cut at its own end.
                      0: (text) => (
                        <bdi dir="ltr" className="block truncate">
                          {text}
                        </bdi>
                      ),
                    })}
                  </span>
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
                {t('common.nav.signIn')}
              </button>
            </li>
          )}
        </ul>
      </div>
    </header>
  );
}
