import { StarIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';

/** Reviewers' names (not translated); their roles and words are `tryon.reviews.${key}.*`. */
const REVIEWS = [
  { key: 'maya', name: 'Maya R.' },
  { key: 'daniel', name: 'Daniel K.' },
  { key: 'priya', name: 'Priya S.' },
  { key: 'lucas', name: 'Lucas M.' },
  { key: 'hannah', name: 'Hannah T.' },
] as const;

/** Five static testimonials; the fifth is hidden from tablet width up, so desktop shows four. */
export function Reviews() {
  const t = useT();
  return (
    <section aria-labelledby="reviews-title" className="mx-auto max-w-6xl px-4 sm:px-6" data-testid="reviews">
      <div className="text-center">
        <p className="text-sm font-bold tracking-widest text-brand-600 uppercase">{t('tryon.reviews.eyebrow')}</p>
        <h2 id="reviews-title" className="mt-2 text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
          {t('tryon.reviews.title')}
        </h2>
      </div>
      <ul className="mt-10 grid gap-5 md:grid-cols-2 lg:grid-cols-4">
        {REVIEWS.map((r, i) => (
          <li
            key={r.name}
            className={cn(
              'flex flex-col rounded-3xl border border-ink-200 bg-white p-6 shadow-sm',
              i === 4 && 'md:hidden',
            )}
            data-testid="review"
          >
            <div
              className="flex gap-0.5 text-amber-500"
              role="img"
              aria-label={t('tryon.reviews.rating', { rating: 5, max: 5 })}
            >
              {Array.from({ length: 5 }, (_, k) => (
                <StarIcon key={k} className="size-4" />
              ))}
            </div>
            <blockquote className="mt-4 flex-1 text-sm leading-6 text-ink-700">
              {t('tryon.reviews.quote', { text: t(`tryon.reviews.${r.key}.text`) })}
            </blockquote>
            <p className="mt-5 flex items-center gap-3">
              <span
                aria-hidden="true"
                className="grid size-9 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-fuchsia-500 text-sm font-bold text-white"
              >
                {r.name[0]}
              </span>
              <span className="text-sm">
                <span className="block font-semibold text-ink-950">{r.name}</span>
                <span className="block text-ink-500">{t(`tryon.reviews.${r.key}.role`)}</span>
              </span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
