import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRightIcon } from '../../../components/ui/icons';
import { ShowcaseFigure, type Outfit } from './showcase-figure';

declare const __SHOWCASE_PHOTOS__: boolean | undefined;
/** Set at build time: true when apps/web/public/showcase holds the six before/after photos. */
const USE_PHOTOS = typeof __SHOWCASE_PHOTOS__ !== 'undefined' && __SHOWCASE_PHOTOS__;

interface Sample {
  /** File prefix in /showcase: `${name}-before.webp`, `${name}-after.webp`. */
  name: string;
  photoBeforeAlt: string;
  photoAfterAlt: string;
  title: string;
  text: string;
  before: Outfit;
  after: Outfit;
  beforeLabel: string;
  afterLabel: string;
  bg: [string, string];
}

const SAMPLES: Sample[] = [
  {
    name: 'casual',
    photoBeforeAlt: 'A woman in a black T-shirt and jeans',
    photoAfterAlt: 'The same woman wearing a blue dress with sleeves, made with AI Dress Up',
    title: 'Casual to Elegant',
    text: 'Turn an everyday look into something dressier in one step.',
    before: 'tee-jeans',
    after: 'gown',
    beforeLabel: 'Before: a woman in a grey T-shirt and jeans',
    afterLabel: 'After: the same woman in a burgundy evening dress',
    bg: ['#f5f3ff', '#ede9fe'],
  },
  {
    name: 'swap',
    photoBeforeAlt: 'A woman in a white blouse and a patterned skirt',
    photoAfterAlt: 'The same woman wearing a navy polo shirt, made with AI Dress Up',
    title: 'Style Swap Magic',
    text: 'Swap one top for another and compare the looks side by side.',
    before: 'red-top',
    after: 'stripe-top',
    beforeLabel: 'Before: a woman in a red top',
    afterLabel: 'After: the same woman in a teal striped top',
    bg: ['#fdf2f8', '#fce7f3'],
  },
  {
    name: 'pro',
    photoBeforeAlt: 'A woman in a white crop top and a patterned skirt',
    photoAfterAlt: 'The same woman wearing a navy polo shirt, made with AI Dress Up',
    title: 'Professional Try-on',
    text: 'Realistic results from one photo of you and one of the garment.',
    before: 'hoodie',
    after: 'blazer',
    beforeLabel: 'Before: a woman in a grey hoodie',
    afterLabel: 'After: the same woman in a navy blazer and white shirt',
    bg: ['#eff6ff', '#dbeafe'],
  },
];

function SampleImage({ sample, side }: { sample: Sample; side: 'before' | 'after' }): ReactNode {
  if (USE_PHOTOS) {
    return (
      <img
        src={`/showcase/${sample.name}-${side}.webp`}
        alt={side === 'before' ? sample.photoBeforeAlt : sample.photoAfterAlt}
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
      label={side === 'before' ? sample.beforeLabel : sample.afterLabel}
    />
  );
}

/** Three feature showcase cards with before/after samples. */
export function Showcase() {
  return (
    <>
      {/* On phones the list scrolls sideways, so it takes focus for keyboard scrolling. */}
      <ul
        className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 md:mx-0 md:grid md:grid-cols-3 md:gap-5 md:overflow-visible md:px-0 md:pb-0"
        data-testid="showcase"
        aria-label="Before and after examples"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
      >
        {SAMPLES.map((s) => (
          <li
            key={s.title}
            className="group w-[82%] shrink-0 snap-center rounded-3xl sm:w-[60%] md:w-auto border border-ink-200 bg-white p-3 shadow-sm transition-shadow hover:shadow-lg"
          >
            <div className="relative grid grid-cols-2 gap-2">
              <figure className="relative aspect-[3/4] overflow-hidden rounded-2xl">
                <SampleImage sample={s} side="before" />
                <figcaption className="absolute top-2 left-2 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-bold text-ink-700">
                  Before
                </figcaption>
              </figure>
              <figure className="relative aspect-[3/4] overflow-hidden rounded-2xl">
                <SampleImage sample={s} side="after" />
                <figcaption className="absolute top-2 left-2 rounded-full bg-gradient-to-r from-brand-600 to-fuchsia-600 px-2 py-0.5 text-[11px] font-bold text-white">
                  After
                </figcaption>
              </figure>
              <span
                aria-hidden="true"
                className="absolute top-1/2 left-1/2 grid size-8 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-brand-600 shadow-md"
              >
                <ArrowRightIcon className="size-4" />
              </span>
            </div>
            <div className="px-2 pt-4 pb-2">
              <h3 className="font-bold text-ink-950">{s.title}</h3>
              <p className="mt-1 text-sm text-ink-600">{s.text}</p>
            </div>
          </li>
        ))}
      </ul>
      {USE_PHOTOS ? (
        <p className="mt-3 text-center text-xs text-ink-500">
          Examples made with AI Dress Up from openly licensed photos.{' '}
          <Link to="/image-credits" className="rounded underline underline-offset-2 hover:text-ink-800">
            Image credits
          </Link>
        </p>
      ) : null}
    </>
  );
}
