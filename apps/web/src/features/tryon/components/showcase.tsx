import { Link } from 'react-router';
import { useT, type MessageId } from '../../../i18n/use-t';
import showcase from '../showcase-samples.json';

type SampleName = 'casual' | 'swap' | 'pro';

interface ShowcaseSample {
  name: SampleName;
  /** Whether the engine's result for this pair was judged fit to show a shopper (`npm run showcase`). */
  showResult: boolean;
}

/** Written by `npm run showcase` (packages/engine/scripts/make-showcase.ts) with the images in /showcase. */
const SAMPLES = showcase.samples as ShowcaseSample[];

const PERSON_ALT: Record<SampleName, MessageId> = {
  casual: 'tryon.showcase.casual.photoBeforeAlt',
  swap: 'tryon.showcase.swap.photoBeforeAlt',
  pro: 'tryon.showcase.pro.photoBeforeAlt',
};

const GARMENT_ALT: Record<SampleName, MessageId> = {
  casual: 'tryon.showcase.casual.garmentAlt',
  swap: 'tryon.showcase.swap.stripedPoloAlt',
  pro: 'tryon.showcase.pro.garmentAlt',
};

/** Only samples with `showResult` have a result image; their alt texts say it is a quick preview. */
const RESULT_ALT: Partial<Record<SampleName, MessageId>> = {
  casual: 'tryon.showcase.casual.resultAlt',
  swap: 'tryon.showcase.swap.resultAlt',
};

/**
 * One picture of a card with its caption below it, never over it: a tile is as narrow as 60 px (a
 * phone, or three cards side by side at 768 px), where a badge on the picture was cut off by its
 * frame ("Kleidungsst"); below, a caption has the tile's width and wraps.
 */
function Photo({
  src,
  alt,
  label,
  shortLabel,
  accent,
  className = '',
  frameClassName = 'aspect-[3/4]',
}: {
  src: string;
  alt: string;
  label: string;
  /** Said instead of `label` on a phone, where the picture is small. */
  shortLabel?: string;
  accent?: boolean;
  /** Where the picture sits in its card's grid. */
  className?: string;
  /** The picture's frame: its shape. */
  frameClassName?: string;
}) {
  return (
    <figure className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <div className={`relative overflow-hidden rounded-2xl bg-ink-100 ${frameClassName}`}>
        <img
          src={src}
          alt={alt}
          width={450}
          height={600}
          loading="lazy"
          decoding="async"
          className="absolute inset-0 h-full w-full object-cover"
        />
      </div>
      <figcaption
        className={`text-center text-[11px] leading-4 font-bold [overflow-wrap:anywhere] ${accent ? 'text-brand-700' : 'text-ink-700'}`}
      >
        {shortLabel ? (
          <>
            <span className="sm:hidden">{shortLabel}</span>
            <span className="hidden sm:inline">{label}</span>
          </>
        ) : (
          label
        )}
      </figcaption>
    </figure>
  );
}

/**
 * Three feature showcase cards. Each shows what the product really did with openly licensed
 * photos: where the built-in engine's result was judged good enough to show, the two photos the
 * try-on starts from beside that result (labelled a quick preview); otherwise the two photos, with
 * a line saying what the try-on does.
 */
export function Showcase() {
  const t = useT();
  const anyInputsOnly = SAMPLES.some((s) => !s.showResult || !RESULT_ALT[s.name]);
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
        {SAMPLES.map((s) => {
          const resultAlt = s.showResult ? RESULT_ALT[s.name] : undefined;
          return (
            <li
              key={s.name}
              data-showcase={resultAlt ? 'result' : 'inputs'}
              className="group w-[82%] shrink-0 snap-center rounded-3xl border border-ink-200 bg-white p-3 shadow-sm transition-shadow hover:shadow-lg sm:w-[60%] md:w-auto"
            >
              {resultAlt ? (
                // The two photos the try-on starts from, stacked, beside the engine's result; on a
                // phone the three side by side, the result last (no picture there outgrows the
                // heading, which stays the first paint's largest).
                <div className="relative grid grid-cols-3 gap-2 sm:grid-rows-2">
                  <Photo
                    src={`/showcase/${s.name}-person.webp`}
                    alt={t(PERSON_ALT[s.name])}
                    label={t('tryon.label.before')}
                  />
                  <Photo
                    src={`/showcase/${s.name}-result.webp`}
                    alt={t(resultAlt)}
                    label={t('tryon.showcase.resultLabel')}
                    shortLabel={t('tryon.label.after')}
                    accent
                    className="order-last sm:order-none sm:col-span-2 sm:col-start-2 sm:row-span-2 sm:row-start-1"
                    frameClassName="aspect-[3/4] sm:aspect-auto sm:flex-1"
                  />
                  <Photo
                    src={`/showcase/${s.name}-garment.webp`}
                    alt={t(GARMENT_ALT[s.name])}
                    label={t('tryon.showcase.garmentLabel')}
                  />
                </div>
              ) : (
                <div className="relative grid grid-cols-2 gap-2">
                  <Photo
                    src={`/showcase/${s.name}-person.webp`}
                    alt={t(PERSON_ALT[s.name])}
                    label={t('tryon.showcase.personLabel')}
                  />
                  <Photo
                    src={`/showcase/${s.name}-garment.webp`}
                    alt={t(GARMENT_ALT[s.name])}
                    label={t('tryon.showcase.garmentLabel')}
                  />
                  <span
                    aria-hidden="true"
                    className="absolute top-[calc(50%-0.625rem)] left-1/2 grid size-8 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-lg font-bold text-brand-600 shadow-md"
                  >
                    +
                  </span>
                </div>
              )}
              <div className="px-2 pt-4 pb-2">
                <h3 className="font-bold text-ink-950">{t(`tryon.showcase.${s.name}.title`)}</h3>
                <p className="mt-1 text-sm text-ink-600">
                  {resultAlt ? t(`tryon.showcase.${s.name}.text`) : t(`tryon.showcase.${s.name}.inputsText`)}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mx-auto mt-3 max-w-2xl text-center text-xs text-ink-500">
        {anyInputsOnly ? t('tryon.showcase.mixedNote') : t('tryon.showcase.credits')}{' '}
        <Link to="/image-credits" className="rounded underline underline-offset-2 hover:text-ink-800">
          {t('tryon.showcase.creditsLink')}
        </Link>
      </p>
    </>
  );
}
