import { Link } from 'react-router';
import { MailIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { BrandMark } from './brand-logo';

export function Footer({ supportEmail }: { supportEmail: string | null }) {
  const t = useT();
  return (
    <footer className="mt-16 border-t border-ink-200 bg-white">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1.5fr_1fr_1fr]">
        <div>
          <Link to="/" className="inline-flex items-center gap-2 rounded-lg text-lg font-extrabold text-ink-950">
            <BrandMark className="size-7" />
            AI Dress Up
          </Link>
          <p className="mt-3 max-w-sm text-sm leading-6 text-ink-600">{t('layout.footer.tagline')}</p>
        </div>
        <nav aria-label={t('layout.footer.legal')}>
          <h2 className="text-sm font-semibold text-ink-950">{t('layout.footer.legal')}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link
                className="rounded text-ink-600 underline-offset-4 hover:text-ink-950 hover:underline"
                to="/terms-of-service"
              >
                {t('layout.footer.terms')}
              </Link>
            </li>
            <li>
              <Link
                className="rounded text-ink-600 underline-offset-4 hover:text-ink-950 hover:underline"
                to="/privacy-policy"
              >
                {t('layout.footer.privacy')}
              </Link>
            </li>
            <li>
              <Link
                className="rounded text-ink-600 underline-offset-4 hover:text-ink-950 hover:underline"
                to="/refund-policy"
              >
                {t('layout.footer.refund')}
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold text-ink-950">{t('layout.footer.support')}</h2>
          <p className="mt-3 text-sm text-ink-600">{t('layout.footer.supportLine')}</p>
          {supportEmail ? (
            <a
              href={`mailto:${supportEmail}`}
              className="mt-2 inline-flex items-center gap-2 rounded text-sm font-semibold break-all text-brand-700 underline-offset-4 hover:underline"
            >
              <MailIcon className="size-4 shrink-0" />
              {supportEmail}
            </a>
          ) : (
            <span className="mt-2 inline-block h-5 w-44 animate-pulse rounded bg-ink-100" aria-hidden="true" />
          )}
        </div>
      </div>
      <div className="border-t border-ink-100">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-ink-500 sm:px-6 sm:text-end">
          {t('layout.footer.copyright', { year: String(new Date().getFullYear()) })}
        </p>
      </div>
    </footer>
  );
}
