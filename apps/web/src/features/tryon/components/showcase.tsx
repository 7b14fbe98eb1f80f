import { Link } from 'react-router';
import { ArrowRightIcon } from '../../../components/ui/icons';
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
  casual: 'tryon.showcase.casual.personAlt',
  swap: 'tryon.showcase.swap.photoBeforeAlt',
  pro: 'tryon.showcase.pro.photoBeforeAlt',
};

function Photo({ src, alt, label, accent }: { src: string; alt: string; label: string; accent?: boolean }) {
  return (
    <figure className="relative aspect-[3/4] overflow-hidden rounded-2xl bg-ink-100">
      <img
        src={src}
        alt={alt}
        width={450}
        height={600}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
      <figcaption
        className={
          accent
            ? 'absolute start-2 top-2 rounded-full bg-gradient-to-r from-brand-600 to-fuchsia-600 px-2 py-0.5 text-[11px] font-bold text-white'
            : 'absolute start-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-bold text-ink-700'
        }
      >
        {label}
      </figcaption>
    </figure>
  );
}

/**
 * Three feature showcase cards. Each shows what the product really did with openly licensed
 * photos: the before/after pair where the engine's result was judged good enough to show, and
 * otherwise the two photos a try-on starts from, with a line saying what the try-on does.
 */
export function Showcase() {
  const t = useT();
  const anyInputsOnly = SAMPLES.some((s) => !s.showResult);
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
            data-showcase={s.showResult ? 'result' : 'inputs'}
            className="group w-[82%] shrink-0 snap-center rounded-3xl border border-ink-200 bg-white p-3 shadow-sm transition-shadow hover:shadow-lg sm:w-[60%] md:w-auto"
          >
            <div className="relative grid grid-cols-2 gap-2">
              <Photo
                src={`/showcase/${s.name}-person.webp`}
                alt={t(PERSON_ALT[s.name])}
                label={s.showResult ? t('tryon.label.before') : t('tryon.showcase.personLabel')}
              />
              {s.showResult ? (
                <Photo
                  src={`/showcase/${s.name}-result.webp`}
                  alt={t(`tryon.showcase.${s.name}.photoAfterAlt`)}
                  label={t('tryon.label.after')}
                  accent
                />
              ) : (
                <Photo
                  src={`/showcase/${s.name}-garment.webp`}
                  alt={t(`tryon.showcase.${s.name}.garmentAlt`)}
                  label={t('tryon.showcase.garmentLabel')}
                />
              )}
              <span
                aria-hidden="true"
                className="absolute top-1/2 left-1/2 grid size-8 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-lg font-bold text-brand-600 shadow-md"
              >
                {s.showResult ? <ArrowRightIcon className="size-4 rtl:-scale-x-100" /> : '+'}
              </span>
            </div>
            <div className="px-2 pt-4 pb-2">
              <h3 className="font-bold text-ink-950">{t(`tryon.showcase.${s.name}.title`)}</h3>
              <p className="mt-1 text-sm text-ink-600">
                {s.showResult ? t(`tryon.showcase.${s.name}.text`) : t(`tryon.showcase.${s.name}.inputsText`)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <p className="mx-auto mt-3 max-w-2xl text-center text-xs text-ink-500">
        {anyInputsOnly ? t('tryon.showcase.inputsNote') : t('tryon.showcase.credits')}{' '}
        <Link to="/image-credits" className="rounded underline underline-offset-2 hover:text-ink-800">
          {t('tryon.showcase.creditsLink')}
        </Link>
      </p>
    </>
  );
}
