import { CheckIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';
import { STEPS, type Step } from '../utils/steps';

export function StepIndicator({ current }: { current: Step }) {
  const t = useT();
  return (
    <nav aria-label={t('tryon.steps.label')}>
      <ol className="flex items-start" data-testid="step-indicator" data-current-step={current}>
        {STEPS.map(({ step, labelId }, i) => {
          const done = step < current;
          const active = step === current;
          return (
            <li
              key={step}
              className="relative flex min-w-0 flex-1 flex-col items-center text-center"
              aria-current={active ? 'step' : undefined}
            >
              {i > 0 ? (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute end-1/2 top-5 h-0.5 w-full -translate-y-1/2',
                    step <= current
                      ? 'bg-gradient-to-r rtl:bg-gradient-to-l from-brand-500 to-fuchsia-500'
                      : 'bg-ink-200',
                  )}
                />
              ) : null}
              <span
                className={cn(
                  'relative z-10 grid size-10 place-items-center rounded-full text-sm font-bold ring-4 ring-ink-50 transition-colors',
                  done && 'bg-brand-600 text-white',
                  active && 'bg-gradient-to-br from-brand-600 to-fuchsia-600 text-white shadow-lg shadow-brand-600/30',
                  !done && !active && 'bg-white text-ink-500 ring-ink-50 outline-1 outline-ink-200',
                )}
              >
                {done ? <CheckIcon className="size-5" /> : step}
              </span>
              <span
                className={cn(
                  'mt-2 max-w-full text-xs font-semibold break-words hyphens-auto sm:text-sm',
                  active ? 'text-brand-700' : done ? 'text-ink-800' : 'text-ink-500',
                )}
              >
                {t(labelId)}
                <span className="sr-only">
                  {done ? ` ${t('tryon.steps.done')}` : active ? ` ${t('tryon.steps.current')}` : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
