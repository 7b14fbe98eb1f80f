import { useId } from 'react';
import type { PublicConfig } from '@aidressup/contract';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { engineKind } from '../utils/progress-copy';

export interface EngineSelectProps {
  engines: PublicConfig['engines'];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}

/** Which engine makes the try-on; shown only when the server offers more than one. */
export function EngineSelect({ engines, value, onChange, disabled }: EngineSelectProps) {
  const id = useId();
  const t = useT();
  if (engines.length < 2) return null;
  return (
    <div data-testid="engine-choice">
      <label htmlFor={id} className="text-sm font-semibold text-ink-900">
        {t('tryon.engine.label')}
      </label>
      <div className="relative mt-2">
        <select
          id={id}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          data-testid="engine-select"
          className="h-12 w-full appearance-none rounded-2xl border border-ink-200 bg-white ps-4 pe-10 text-sm font-semibold text-ink-900 shadow-sm disabled:opacity-60"
        >
          {engines.map((e) => (
            <option key={e.id} value={e.id}>
              {t(engineKind(e) === 'local' ? 'tryon.engine.option.local' : 'tryon.engine.option.hosted', {
                engine: e.label,
              })}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute end-4 top-1/2 size-4 -translate-y-1/2 text-ink-500" />
      </div>
    </div>
  );
}
