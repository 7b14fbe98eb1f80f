import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { WEB_MESSAGES, type PublicConfig } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from './api-client';

interface ConfigState {
  config: PublicConfig | null;
  error: string | null;
  retry: () => void;
}

const ConfigContext = createContext<ConfigState | null>(null);

export function fetchPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return apiRequest(
    '/api/config',
    loadResponseSchemas().then((s) => s.PublicConfigSchema),
    {
      fallbackError: WEB_MESSAGES.configUnavailable,
      ...(signal ? { signal } : {}),
    },
  );
}

/**
 * Loads the public configuration (GET /api/config) once at start. The answer arrives while the
 * first page is being shown: it is applied as a transition, which React renders in slices.
 */
export function ConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ctrl = new AbortController();
    fetchPublicConfig(ctrl.signal)
      .then((c) =>
        startTransition(() => {
          setConfig(c);
          setError(null);
        }),
      )
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Could not load the public configuration', e);
        setError(WEB_MESSAGES.configUnavailable);
      });
    return () => ctrl.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const value = useMemo(() => ({ config, error, retry }), [config, error, retry]);
  return <ConfigContext value={value}>{children}</ConfigContext>;
}

export function usePublicConfig(): ConfigState {
  const ctx = useContext(ConfigContext);
  if (!ctx) throw new Error('usePublicConfig must be used inside ConfigProvider');
  return ctx;
}
