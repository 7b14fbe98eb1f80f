import { StarIcon } from '../../../components/ui/icons';
import { cn } from '../../../lib/cn';

const REVIEWS = [
  {
    name: 'Maya R.',
    role: 'Online shopper',
    text: 'I was torn between two dresses for a wedding. Seeing both on me made the choice obvious, and the one I kept fits exactly as it looked.',
  },
  {
    name: 'Daniel K.',
    role: 'Menswear blogger',
    text: 'I use it to preview jackets before I order them for shoots. It saves me a pile of returns every month.',
  },
  {
    name: 'Priya S.',
    role: 'Student',
    text: 'Super easy: a photo of me, a photo of the shirt, and a few moments later I could see how it looked. The free tries were enough to get hooked.',
  },
  {
    name: 'Lucas M.',
    role: 'Boutique owner',
    text: 'We show customers how a piece would look on them before they visit the store. It sparks great conversations.',
  },
  {
    name: 'Hannah T.',
    role: 'Stylist',
    text: 'A quick way to test outfit ideas with clients remotely. The photo guide really helps them take the right picture.',
  },
];

/** Five static testimonials; the fifth is hidden from tablet width up, so desktop shows four. */
export function Reviews() {
  return (
    <section aria-labelledby="reviews-title" className="mx-auto max-w-6xl px-4 sm:px-6" data-testid="reviews">
      <div className="text-center">
        <p className="text-sm font-bold tracking-widest text-brand-600 uppercase">Reviews</p>
        <h2 id="reviews-title" className="mt-2 text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
          Loved by shoppers and stylists
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
            <div className="flex gap-0.5 text-amber-500" role="img" aria-label="Rated 5 out of 5">
              {Array.from({ length: 5 }, (_, k) => (
                <StarIcon key={k} className="size-4" />
              ))}
            </div>
            <blockquote className="mt-4 flex-1 text-sm leading-6 text-ink-700">“{r.text}”</blockquote>
            <p className="mt-5 flex items-center gap-3">
              <span
                aria-hidden="true"
                className="grid size-9 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-fuchsia-500 text-sm font-bold text-white"
              >
                {r.name[0]}
              </span>
              <span className="text-sm">
                <span className="block font-semibold text-ink-950">{r.name}</span>
                <span className="block text-ink-500">{r.role}</span>
              </span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
