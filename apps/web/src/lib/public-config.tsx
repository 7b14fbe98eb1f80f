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

function fetchPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return apiRequest(
    '/api/config',
    loadResponseSchemas().then((s) => s.PublicConfigSchema),
    {
      fallbackError: WEB_MESSAGES.configUnavailable,
      ...(signal ? { signal } : {}),
    },
  );
}

/** How often the configuration is read again: engines go down and come back (their `status`). */
const CONFIG_REFRESH_MS = 60_000;

/**
 * Loads the public configuration (GET /api/config) at start, then again every minute. The first
 * answer arrives while the first page is being shown: it is applied as a transition, which React
 * renders in slices.
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
    // Read again quietly: a failure keeps what the page has.
    const timer = setInterval(() => {
      fetchPublicConfig(ctrl.signal)
        .then(setConfig)
        .catch(() => undefined);
    }, CONFIG_REFRESH_MS);
    return () => {
      clearInterval(timer);
      ctrl.abort();
    };
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
