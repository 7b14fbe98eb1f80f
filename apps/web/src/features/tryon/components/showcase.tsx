import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRightIcon } from '../../../components/ui/icons';
import { useT, type Translate } from '../../../i18n/use-t';
import { ShowcaseFigure, type Outfit } from './showcase-figure';

declare const __SHOWCASE_PHOTOS__: boolean | undefined;
/** Set at build time: true when apps/web/public/showcase holds the six before/after photos. */
const USE_PHOTOS = typeof __SHOWCASE_PHOTOS__ !== 'undefined' && __SHOWCASE_PHOTOS__;

type SampleName = 'casual' | 'swap' | 'pro';

interface Sample {
  /** File prefix in /showcase: `${name}-before.webp`, `${name}-after.webp`; its texts are `tryon.showcase.${name}.*`. */
  name: SampleName;
  before: Outfit;
  after: Outfit;
  bg: [string, string];
}

const SAMPLES: Sample[] = [
  { name: 'casual', before: 'tee-jeans', after: 'gown', bg: ['#f5f3ff', '#ede9fe'] },
  { name: 'swap', before: 'red-top', after: 'stripe-top', bg: ['#fdf2f8', '#fce7f3'] },
  { name: 'pro', before: 'hoodie', after: 'blazer', bg: ['#eff6ff', '#dbeafe'] },
];

function SampleImage({ sample, side, t }: { sample: Sample; side: 'before' | 'after'; t: Translate }): ReactNode {
  const n = sample.name;
  if (USE_PHOTOS) {
    return (
      <img
        src={`/showcase/${sample.name}-${side}.webp`}
        alt={t(side === 'before' ? `tryon.showcase.${n}.photoBeforeAlt` : `tryon.showcase.${n}.photoAfterAlt`)}
        width={450}
        height={600}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
    );
  }
  return (
    <ShowcaseFigure
      outfit={side === 'before' ? sample.before : sample.after}
      background={sample.bg}
      label={t(side === 'before' ? `tryon.showcase.${n}.beforeLabel` : `tryon.showcase.${n}.afterLabel`)}
    />
  );
}

/** Three feature showcase cards with before/after samples. */
export function Showcase() {
  const t = useT();
  return (
    <>
      {/* On phones the list scrolls sideways, so it takes focus for keyboard scrolling. */}
      <ul
        className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 md:mx-0 md:grid md:grid-cols-3 md:gap-5 md:overflow-visible md:px-0 md:pb-0"
        data-testid="showcase"
        aria-label={t('tryon.showcase.label')}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
      >
        {SAMPLES.map((s) => (
          <li
            key={s.name}
            className="group w-[82%] shrink-0 snap-center rounded-3xl sm:w-[60%] md:w-auto border border-ink-200 bg-white p-3 shadow-sm transition-shadow hover:shadow-lg"
          >
            <div className="relative grid grid-cols-2 gap-2">
              <figure className="relative aspect-[3/4] overflow-hidden rounded-2xl">
                <SampleImage sample={s} side="before" t={t} />
                <figcaption className="absolute start-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-bold text-ink-700">
                  {t('tryon.label.before')}
                </figcaption>
              </figure>
              <figure className="relative aspect-[3/4] overflow-hidden rounded-2xl">
                <SampleImage sample={s} side="after" t={t} />
                <figcaption className="absolute start-2 top-2 rounded-full bg-gradient-to-r from-brand-600 to-fuchsia-600 px-2 py-0.5 text-[11px] font-bold text-white">
                  {t('tryon.label.after')}
                </figcaption>
              </figure>
              <span
                aria-hidden="true"
                className="absolute top-1/2 left-1/2 grid size-8 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-brand-600 shadow-md"
              >
                <ArrowRightIcon className="size-4 rtl:-scale-x-100" />
              </span>
            </div>
            <div className="px-2 pt-4 pb-2">
              <h3 className="font-bold text-ink-950">{t(`tryon.showcase.${s.name}.title`)}</h3>
              <p className="mt-1 text-sm text-ink-600">{t(`tryon.showcase.${s.name}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
      {USE_PHOTOS ? (
        <p className="mt-3 text-center text-xs text-ink-500">
          {t('tryon.showcase.credits')}{' '}
          <Link to="/image-credits" className="rounded underline underline-offset-2 hover:text-ink-800">
            {t('tryon.showcase.creditsLink')}
          </Link>
        </p>
      ) : null}
    </>
  );
}
