import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatters } from '../../../i18n/format';
import { useLocale, useT, type Translate } from '../../../i18n/use-t';
import { LegalTextContext, loadEnglishLegal, useLegalMessages, useLegalText } from './use-legal-messages';

/** The date of the texts' latest version, as the English page writes it. */
const LEGAL_UPDATED = '23 November 2026';
/** The same date for the other languages (local midnight, so no time zone moves it a day). */
const LEGAL_UPDATED_DATE = new Date(2026, 10, 23);

export type LegalDoc = 'terms' | 'privacy' | 'refund';

export function LegalPage({ doc, children }: { doc: LegalDoc; children: ReactNode }) {
  useLegalMessages();
  const t = useT();
  const locale = useLocale();
  // The English text, when asked for on a translated page (for the language it was asked on).
  const [english, setEnglish] = useState<{ locale: string; t: Translate } | null>(null);
  const [englishFailed, setEnglishFailed] = useState(false);
  const showEnglish = locale !== 'en' && english?.locale === locale;
  const text = useMemo(
    () => ({ t: showEnglish && english ? english.t : t, english: showEnglish }),
    [showEnglish, english, t],
  );
  const lt = text.t;
  const updated = locale === 'en' || showEnglish ? LEGAL_UPDATED : formatters(locale).date(LEGAL_UPDATED_DATE);
  const title = t(`legal.${doc}.title`);

  const toggleEnglish = () => {
    setEnglishFailed(false);
    if (showEnglish) {
      setEnglish(null);
      return;
    }
    loadEnglishLegal().then(
      (en) => setEnglish({ locale, t: en }),
      () => setEnglishFailed(true),
    );
  };

  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{`${title} · AI Dress Up`}</title>
      <nav aria-label={t('legal.frame.breadcrumb')} className="text-sm text-ink-500">
        <Link to="/" className="rounded hover:text-ink-900 hover:underline">
          {t('legal.frame.home')}
        </Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{title}</span>
      </nav>
      {locale !== 'en' ? (
        <div
          role="note"
          data-testid="legal-translation-note"
          className="mt-6 flex flex-col items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm leading-6 text-amber-950"
        >
          <p>{t('legal.frame.note')}</p>
          <button
            type="button"
            onClick={toggleEnglish}
            className="rounded font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800"
          >
            {showEnglish ? t('legal.frame.showTranslation') : t('legal.frame.showEnglish')}
          </button>
          {englishFailed ? (
            <p role="alert" className="text-amber-900">
              {t('common.language.failed')}
            </p>
          ) : null}
        </div>
      ) : null}
      <LegalTextContext value={text}>
        <div lang={showEnglish ? 'en' : undefined} dir={showEnglish ? 'ltr' : undefined}>
          <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
            {lt(`legal.${doc}.title`)}
          </h1>
          <p className="mt-2 text-sm text-ink-500">{lt('legal.frame.updated', { date: updated })}</p>
          <div className="mt-6 text-lg leading-8 text-ink-700">{lt(`legal.${doc}.intro`)}</div>
          <div className="legal-body mt-10 space-y-10 text-base leading-7 text-ink-700 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-ink-950 [&_li]:mt-2 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:ps-6 [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-4">
            {children}
          </div>
        </div>
      </LegalTextContext>
    </article>
  );
}

/**
 * The support address for a message's `<0>{email}</0>`: a mail link (kept left to right in
 * Arabic), or the words for "our support address" while the configuration is not known.
 */
export function useSupportEmail(email: string | null): { email: string; tag: (text: string) => ReactNode } {
  const { t } = useLegalText();
  if (!email) return { email: t('legal.frame.supportFallback'), tag: (text) => <span>{text}</span> };
  return {
    email,
    tag: (text) => (
      <a href={`mailto:${email}`} dir="ltr">
        {text}
      </a>
    ),
  };
}
