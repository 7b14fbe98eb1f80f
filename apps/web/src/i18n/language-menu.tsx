import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LOCALES, localeDirection, type Locale } from '@aidressup/contract';
import { CheckIcon, GlobeIcon } from '../components/ui/icons';
import { cn } from '../lib/cn';
import { chooseLocale } from './i18n';
import { LOCALE_INFO } from './locales';
import { useLocale, useT } from './use-t';

export interface LanguageMenuProps {
  /** `bar`: the desktop navigation's button with a drop-down; `inline`: the mobile menu's full-width row. */
  variant: 'bar' | 'inline';
  /** Called once a language is chosen (the mobile menu closes then). */
  onChosen?: () => void;
}

/**
 * The language button: shows the page's language and opens a menu of every language in its own
 * name (an ARIA menu of `menuitemradio` items: arrows, Home/End, Enter/Space, Escape).
 */
export function LanguageMenu({ variant, onChosen }: LanguageMenuProps) {
  const t = useT();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const rootRef = useRef<HTMLDivElement>(null);

  const focusItem = (index: number) => {
    const n = LOCALES.length;
    itemRefs.current[((index % n) + n) % n]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(Math.max(0, LOCALES.indexOf(locale)));
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
    // Focus moves to the checked item when the menu opens, not when the language changes under it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  const pick = (next: Locale) => {
    close(true);
    onChosen?.();
    if (next === locale) return;
    chooseLocale(next).then(
      () => setFailed(false),
      () => setFailed(true),
    );
  };

  const onMenuKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const index = itemRefs.current.findIndex((el) => el === document.activeElement);
    switch (e.key) {
      case 'ArrowDown':
        focusItem(index + 1);
        break;
      case 'ArrowUp':
        focusItem(index - 1);
        break;
      case 'Home':
        focusItem(0);
        break;
      case 'End':
        focusItem(LOCALES.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    e.preventDefault();
  };

  const info = LOCALE_INFO[locale];
  return (
    <div ref={rootRef} className={cn('relative', variant === 'inline' && 'w-full')}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('common.language.button', { language: info.name })}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className={cn(
          'inline-flex items-center gap-2 rounded-lg font-semibold text-ink-700 hover:bg-ink-100',
          variant === 'bar' ? 'px-3 py-2 text-sm' : 'w-full px-3 py-3 text-start text-base',
        )}
      >
        <GlobeIcon className={variant === 'bar' ? 'size-4' : 'size-5'} />
        <span lang={locale}>{info.label}</span>
      </button>
      {open ? (
        <ul
          id={menuId}
          role="menu"
          aria-label={t('common.language.menu')}
          onKeyDown={onMenuKey}
          className={cn(
            'z-50 min-w-52 rounded-xl border border-ink-200 bg-white p-1 shadow-lg',
            variant === 'bar' ? 'absolute end-0 top-full mt-2' : 'mt-1 w-full',
          )}
        >
          {LOCALES.map((code, i) => (
            <li key={code} role="none">
              <button
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                type="button"
                role="menuitemradio"
                aria-checked={code === locale}
                tabIndex={-1}
                lang={code}
                dir={localeDirection(code)}
                onClick={() => pick(code)}
                className={cn(
                  'flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2.5 text-start text-sm font-medium hover:bg-ink-100 focus:bg-ink-100 focus:outline-none',
                  code === locale ? 'text-brand-700' : 'text-ink-800',
                )}
              >
                {LOCALE_INFO[code].name}
                {code === locale ? <CheckIcon className="size-4 shrink-0" /> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {failed ? (
        <p role="alert" className="absolute end-0 top-full mt-2 w-64 rounded-lg bg-red-50 p-2 text-xs text-red-800">
          {t('common.language.failed')}
        </p>
      ) : null}
    </div>
  );
}
