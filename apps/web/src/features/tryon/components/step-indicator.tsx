import { CheckIcon } from '../../../components/ui/icons';
import { cn } from '../../../lib/cn';
import { STEPS, type Step } from '../utils/steps';

export function StepIndicator({ current }: { current: Step }) {
  return (
    <nav aria-label="Try-on progress">
      <ol className="flex items-start" data-testid="step-indicator" data-current-step={current}>
        {STEPS.map(({ step, label }, i) => {
          const done = step < current;
          const active = step === current;
          return (
            <li
              key={step}
              className="relative flex flex-1 flex-col items-center text-center"
              aria-current={active ? 'step' : undefined}
            >
              {i > 0 ? (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-5 right-1/2 h-0.5 w-full -translate-y-1/2',
                    step <= current ? 'bg-gradient-to-r from-brand-500 to-fuchsia-500' : 'bg-ink-200',
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
                  'mt-2 text-xs font-semibold sm:text-sm',
                  active ? 'text-brand-700' : done ? 'text-ink-800' : 'text-ink-500',
                )}
              >
                {label}
                <span className="sr-only">{done ? ' (done)' : active ? ' (current step)' : ''}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
