/**
 * The try-on engines enabled by configuration, chosen in this one place.
 * Engines are created lazily on first use (or when warmed at start-up), so a heavy SDK or model
 * is loaded only for an engine that is configured.
 */
import { CATEGORY_VALUES, type TryOnCategory } from '@aidressup/contract';
import type { TryOnEngine } from '@aidressup/engine';
import { LOCAL_ENGINE_LABEL, createLocalEngine } from '@aidressup/engine';
import type { Config } from '../config.js';
import type { HostedLogger } from './hosted-call.js';
import { COG, FAL, FASHN, NANO_BANANA, REPLICATE, VERTEX, type EngineDescriptor } from './descriptors.js';

/** What the factories get besides configuration: the process's logger. */
export interface EngineContext {
  log: HostedLogger;
}

export interface EngineFactory {
  label: string;
  enabled(config: Config): boolean;
  /**
   * What it can dress, known without creating it (`/api/config` is built at start); the engine
   * itself declares the same in `TryOnEngine.categories`.
   */
  categories(config: Config): readonly TryOnCategory[];
  /**
   * It dresses from a photo of the garment being worn (by a model, or a person photo used as the
   * garment), which the built-in engine refuses (GARMENT_WORN): the page then offers it instead.
   */
  takesWornGarments(config: Config): boolean;
  create(config: Config, context?: EngineContext): Promise<TryOnEngine>;
}

type HostedDeps = Awaited<ReturnType<typeof hostedDeps>>;

/** A hosted engine's factory from its descriptor: enabled by its settings, created by `create`. */
function hosted<S>(
  d: EngineDescriptor<S>,
  create: (c: Config, deps: HostedDeps) => Promise<TryOnEngine>,
): Record<string, EngineFactory> {
  return {
    [d.id]: {
      label: d.label,
      enabled: (c) => d.settings(c) !== undefined,
      categories: (c) => d.categories(d.settings(c)!),
      takesWornGarments: (c) => d.takesWornGarments(d.settings(c)!),
      create: async (c, ctx) => create(c, await hostedDeps(c, ctx)),
    },
  };
}

/** Engine id → lazy factory. `local` is always enabled. */
export const ENGINE_FACTORIES: Record<string, EngineFactory> = {
  local: {
    label: LOCAL_ENGINE_LABEL,
    enabled: () => true,
    // Clothing only: the built-in engine cannot place shoes, bags, hats or jewellery.
    categories: () => CATEGORY_VALUES,
    // It cuts the garment out of its photo: a garment being worn is refused (GARMENT_WORN).
    takesWornGarments: () => false,
    // One worker thread per core unless ENGINE_CONCURRENCY says otherwise (the try-on limiter matches it).
    create: async (c) => createLocalEngine(c.engines.concurrency > 0 ? { threads: c.engines.concurrency } : {}),
  },
  // ---- Hosted engines: each from its descriptor (`descriptors.ts`), its adapter loaded on first use ----
  ...hosted(NANO_BANANA, async (c, d) =>
    (await import('./nano-banana.js')).createNanoBananaEngine(c.engines.gemini!, d),
  ),
  ...hosted(FASHN, async (c, d) => (await import('./fashn.js')).createFashnEngine(c.engines.fashn!, d)),
  ...hosted(FAL, async (c, d) => (await import('./fal.js')).createFalEngine(c.engines.fal!, d)),
  ...hosted(VERTEX, async (c, d) => (await import('./vertex-tryon.js')).createVertexEngine(c.engines.vertex!, d)),
  ...hosted(REPLICATE, async (c, d) => (await import('./replicate.js')).createReplicateEngine(c.engines.replicate!, d)),
  ...hosted(COG, async (c, d) => (await import('./cog.js')).createCogEngine(c.engines.cog!, d)),
};

/**
 * What every hosted engine gets: its deadline from configuration, and the process's logger (the
 * API's or the worker's pino logger), or a pino logger with the shared options when none is given.
 */
async function hostedDeps(c: Config, ctx: EngineContext | undefined) {
  const { createLogger } = await import('../logging.js');
  return {
    deadlineMs: c.engines.deadlineMs,
    maxBytes: c.engines.upstreamMaxBytes,
    outputOrigins: c.engines.upstreamOutputOrigins,
    logger: ctx?.log ?? createLogger(c, c.sessionSecret ? { addressKey: c.sessionSecret } : {}),
  };
}

/** An enabled engine as the registry lists it. */
export interface EngineListing {
  id: string;
  label: string;
  categories: readonly TryOnCategory[];
  /** See `EngineFactory.takesWornGarments`. */
  takesWornGarments: boolean;
}

export interface EngineRegistry {
  /** Enabled engines, in a stable order, with the categories each offers. */
  list(): EngineListing[];
  has(id: string): boolean;
  /** The categories an enabled engine offers (none for an unknown id). */
  categories(id: string): readonly TryOnCategory[];
  readonly defaultEngine: string;
  get(id: string): Promise<TryOnEngine>;
  /** Creates and warms every engine; never throws (failures are reported by `status`). */
  warmAll(onError?: (id: string, err: unknown) => void): Promise<void>;
  status(): Record<string, { status: 'ok' | 'degraded' | 'down'; warmed: boolean }>;
  /** Whether health says the engine is down (the page does not offer it; try-ons go to its fallback). */
  isDown(id: string): boolean;
  /** The engines a try-on on `id` moves to, in order, when it fails (ENGINE_FALLBACK; enabled ones only). */
  fallbacks(id: string): readonly string[];
  closeAll(): Promise<void>;
}

/** Picks the default engine: DEFAULT_ENGINE, else nano-banana when enabled, else local. */
export function chooseDefaultEngine(config: Config, enabled: string[]): string {
  const wanted = config.engines.defaultEngine;
  if (wanted && enabled.includes(wanted)) return wanted;
  if (enabled.includes('nano-banana')) return 'nano-banana';
  if (enabled.includes('local')) return 'local';
  const first = enabled[0];
  if (!first) throw new Error('no try-on engine is enabled');
  return first;
}

/**
 * Builds the registry from configuration, or from a given set of engines (tests and
 * benchmarks inject deterministic engines this way).
 */
export function createEngineRegistry(
  config: Config,
  injected?: Record<string, TryOnEngine>,
  context?: EngineContext,
): EngineRegistry {
  const factories = new Map<string, Omit<EngineListing, 'id'> & { create: () => Promise<TryOnEngine> }>();
  if (injected) {
    for (const [id, engine] of Object.entries(injected)) {
      factories.set(id, {
        label: engine.label,
        categories: engine.categories ?? CATEGORY_VALUES,
        // An engine injected under a known engine's id (a test's stand-in) takes what that one takes.
        takesWornGarments: ENGINE_FACTORIES[id]?.takesWornGarments(config) ?? false,
        create: async () => engine,
      });
    }
  } else {
    for (const [id, f] of Object.entries(ENGINE_FACTORIES)) {
      if (f.enabled(config))
        factories.set(id, {
          label: f.label,
          categories: f.categories(config),
          takesWornGarments: f.takesWornGarments(config),
          create: () => f.create(config, context),
        });
    }
  }
  const ids = [...factories.keys()];
  const defaultEngine = chooseDefaultEngine(config, ids);
  const created = new Map<string, Promise<TryOnEngine>>();
  const health = new Map<string, { status: 'ok' | 'degraded' | 'down'; warmed: boolean }>();
  /** Engines created so far; hosted ones report their own health (no provider call). */
  const resolved = new Map<string, TryOnEngine>();

  const get = (id: string): Promise<TryOnEngine> => {
    const factory = factories.get(id);
    if (!factory) return Promise.reject(new Error(`engine ${id} is not enabled`));
    let p = created.get(id);
    if (!p) {
      p = factory.create();
      created.set(id, p);
      p.then((e) => resolved.set(id, e)).catch(() => undefined);
      // A failed creation may be retried on the next call.
      p.catch(() => created.delete(id));
    }
    return p;
  };

  const status = (): ReturnType<EngineRegistry['status']> =>
    Object.fromEntries(
      ids.map((id) => {
        const base = health.get(id) ?? { status: 'ok' as const, warmed: false };
        const own = resolved.get(id)?.health?.();
        return [
          id,
          own ? { ...own, warmed: base.warmed, status: base.status === 'down' ? ('down' as const) : own.status } : base,
        ];
      }),
    );
  const fallback = config.engines.fallback ?? new Map<string, readonly string[]>();

  return {
    list: () =>
      ids.map((id) => {
        const { label, categories, takesWornGarments } = factories.get(id)!;
        return { id, label, categories, takesWornGarments };
      }),
    has: (id) => factories.has(id),
    categories: (id) => factories.get(id)?.categories ?? [],
    defaultEngine,
    get,
    async warmAll(onError) {
      await Promise.all(
        ids.map(async (id) => {
          try {
            const engine = await get(id);
            await engine.warm?.();
            health.set(id, { status: 'ok', warmed: true });
          } catch (err) {
            health.set(id, { status: 'down', warmed: false });
            onError?.(id, err);
          }
        }),
      );
    },
    status,
    isDown: (id) => status()[id]?.status === 'down',
    fallbacks: (id) => (fallback.get(id) ?? []).filter((next) => factories.has(next)),
    async closeAll() {
      await Promise.all(
        [...created.values()].map(async (p) => {
          try {
            await (await p).close?.();
          } catch {
            // closing is best effort
          }
        }),
      );
    },
  };
}
