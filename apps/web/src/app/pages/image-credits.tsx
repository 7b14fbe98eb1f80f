import { Link } from 'react-router';
import { SHOWCASE_CREDITS, type ImageSource } from '../../features/legal/image-credits';
import { useT } from '../../i18n/use-t';

function Source({ source }: { source: ImageSource }) {
  const t = useT();
  return (
    <div className="rounded-2xl bg-ink-50 p-4 ring-1 ring-ink-100">
      <h3 className="font-semibold text-ink-950">{t(source.what)}</h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_1fr]">
        <dt className="text-ink-500">{t('gallery.credits.label.file')}</dt>
        <dd className="font-mono text-xs break-all text-ink-800 sm:text-sm">{source.file}</dd>
        <dt className="text-ink-500">{t('gallery.credits.label.source')}</dt>
        <dd>
          <a
            href={source.sourceUrl}
            className="font-semibold break-words text-brand-700 underline underline-offset-4"
            rel="noreferrer"
          >
            {t(source.source)}
          </a>
        </dd>
        <dt className="text-ink-500">{t('gallery.credits.label.author')}</dt>
        <dd className="text-ink-800">{source.author}</dd>
        <dt className="text-ink-500">{t('gallery.credits.label.licence')}</dt>
        <dd>
          <a
            href={source.licenceUrl}
            className="font-semibold text-brand-700 underline underline-offset-4"
            rel="noreferrer license"
          >
            {source.licence}
          </a>
        </dd>
      </dl>
      {source.note ? <p className="mt-2 text-sm text-ink-600">{t(source.note)}</p> : null}
    </div>
  );
}

/** Where the showcase images come from (data: features/legal/image-credits.ts). */
/** One of a showcase card's pictures, captioned (its alt is empty: the caption says what it is). */
function CreditFigure({ src, label }: { src: string; label: string }) {
  return (
    <figure>
      <img
        src={src}
        alt=""
        width={450}
        height={600}
        loading="lazy"
        className="aspect-[3/4] w-full rounded-xl object-cover"
      />
      <figcaption className="mt-1 text-xs font-semibold text-ink-600">{label}</figcaption>
    </figure>
  );
}

export function ImageCreditsPage() {
  const t = useT();
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{t('gallery.credits.pageTitle')}</title>
      <nav aria-label={t('gallery.credits.breadcrumb')} className="text-sm text-ink-500">
        <Link to="/" className="rounded hover:text-ink-900 hover:underline">
          {t('gallery.credits.home')}
        </Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{t('gallery.credits.heading')}</span>
      </nav>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
        {t('gallery.credits.heading')}
      </h1>
      <p className="mt-6 text-lg leading-8 text-ink-700">{t('gallery.credits.introPreviews')}</p>
      <ul className="mt-10 space-y-8">
        {SHOWCASE_CREDITS.map((c) => (
          <li key={c.name} className="rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 className="text-xl font-bold text-ink-950">{t(c.title)}</h2>
            <div className={`mt-4 grid gap-3 ${c.result ? 'grid-cols-3 sm:max-w-md' : 'grid-cols-2 sm:max-w-sm'}`}>
              <CreditFigure src={`/showcase/${c.name}-person.webp`} label={t('tryon.showcase.personLabel')} />
              <CreditFigure src={`/showcase/${c.name}-garment.webp`} label={t('tryon.showcase.garmentLabel')} />
              {c.result ? (
                <CreditFigure src={`/showcase/${c.name}-result.webp`} label={t('tryon.showcase.resultLabel')} />
              ) : null}
            </div>
            <div className="mt-4 grid gap-3">
              <Source source={c.person} />
              <Source source={c.garment} />
              {c.result ? (
                <p className="rounded-2xl bg-ink-50 p-4 text-sm text-ink-700 ring-1 ring-ink-100">
                  {t('gallery.credits.resultMade')}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </article>
  );
}
