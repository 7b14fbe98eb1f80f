import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { useT } from '../../i18n/use-t';

export function NotFoundPage() {
  const t = useT();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <title>{t('gallery.notFound.title')}</title>
      <p className="text-sm font-bold tracking-widest text-brand-600 uppercase">{t('gallery.notFound.eyebrow')}</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-ink-950 sm:text-5xl">
        {t('gallery.notFound.heading')}
      </h1>
      <p className="mt-4 text-lg text-ink-600">{t('gallery.notFound.text')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses('primary', 'lg')}>
          {t('gallery.notFound.home')}
        </Link>
        <Link to="/gallery" className={buttonClasses('secondary', 'lg')}>
          {t('gallery.heading')}
        </Link>
      </div>
    </section>
  );
}
