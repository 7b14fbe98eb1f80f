/**
 * A whole outfit (a top over trousers or a skirt) on any engine. An engine that dresses an
 * outfit itself (`engine.outfit`, the built-in one) gets both garments in one call; for any other
 * engine the bottom is dressed first (lower_body), then the top (upper_body) over that result:
 * two calls in sequence under the same signal. Used by the in-process runner and the queue workers,
 * through `runWithFailover`: when the engine fails for the provider's reasons the same try-on moves
 * to the next engine ENGINE_FALLBACK names, within the same deadline.
 */
import { HOSTED_ENGINE_MESSAGES, MESSAGES, type TryOnCategory } from '@aidressup/contract';
import { isEngineError, type KeptPersonInput, type TryOnEngine, type TryOnOutput } from '@aidressup/engine';
import type { EngineRegistry } from '../engines/registry.js';

export interface EngineCall {
  person: Uint8Array;
  garment: Uint8Array;
  category: TryOnCategory;
  /** The bottom of a whole outfit (then `garment` is the top and `category` upper_body). */
  lowerGarment?: Uint8Array | undefined;
  /** The person photo is a kept one (My photos): its key and the engine's analysis of it. */
  keptPerson?: KeptPersonInput | undefined;
  signal: AbortSignal;
}

/** Runs one try-on, or a whole outfit, on `engine`. */
export async function runEngine(engine: TryOnEngine, call: EngineCall): Promise<TryOnOutput> {
  const { person, garment, category, lowerGarment, signal } = call;
  const kept = call.keptPerson ? { keptPerson: call.keptPerson } : {};
  if (!lowerGarment) return engine.tryOn({ person, garment, category, signal, ...kept });
  if (engine.outfit) return engine.tryOn({ person, garment, category: 'upper_body', lowerGarment, signal, ...kept });
  // The kept photo is the bottom's person; the top goes over the dressed result (another picture).
  const dressedBottom = await engine.tryOn({ person, garment: lowerGarment, category: 'lower_body', signal, ...kept });
  const top = await engine.tryOn({ person: dressedBottom.image, garment, category: 'upper_body', signal });
  return dressedBottom.keptPersonAnalysis ? { ...top, keptPersonAnalysis: dressedBottom.keptPersonAnalysis } : top;
}

/** What a try-on needs of the engines for failover (the registry). */
export type EngineChain = Pick<EngineRegistry, 'get' | 'fallbacks' | 'isDown' | 'categories'>;

/** The run that made the result: which engine, which ones failed first, and how many images it made. */
export interface ChainResult {
  output: TryOnOutput;
  engineId: string;
  /** Engines that failed before, in order (empty without failover). */
  failedOver: string[];
  /** Images the engine made (a whole outfit on an engine without `outfit`: two). */
  images: number;
  /** Garments beyond the first dressed in one call (a whole outfit on an engine with `outfit`: one). */
  extraGarments: number;
}

/** The time kept back for the next engine when one is tried with others still to come. */
const FAILOVER_RESERVE_MS = 30_000;

/**
 * Whether a failure should move the try-on to the next engine: the provider's trouble (5xx,
 * timeout, quota, unavailable, a malformed answer), never a refusal of the photos, and not once
 * the whole try-on's time is up or the process is stopping.
 */
function failsOver(err: unknown, overall: AbortSignal): boolean {
  if (overall.aborted) return false;
  if (!isEngineError(err)) return true;
  if (err.code === 'ENGINE_TIMEOUT') return true;
  if (err.code !== 'ENGINE_FAILED') return false;
  return err.message !== HOSTED_ENGINE_MESSAGES.photoUnreadable && err.message !== MESSAGES.categoryNotOffered;
}

/**
 * The engines a try-on on `engineId` may use, in order: itself, then its ENGINE_FALLBACK list,
 * each only if it offers the category; those health says are down go last (still tried when
 * nothing else is left).
 */
function engineChain(engines: EngineChain, engineId: string, category: TryOnCategory): string[] {
  const all = [engineId, ...engines.fallbacks(engineId).filter((id) => engines.categories(id).includes(category))];
  return [...all.filter((id) => !engines.isDown(id)), ...all.filter((id) => engines.isDown(id))];
}

/**
 * Runs one try-on (or whole outfit) on its engine, moving to the next one ENGINE_FALLBACK names
 * when it fails for the provider's reasons, all within the same overall deadline (`call.signal`;
 * an engine with others still to come gets the time left less FAILOVER_RESERVE_MS, at most half).
 * Rejects with the last engine's error when every one failed.
 */
export async function runWithFailover(
  engines: EngineChain,
  engineId: string,
  call: EngineCall & { deadlineAt: number },
  log?: { warn(obj: Record<string, unknown>, msg: string): void },
): Promise<ChainResult> {
  const chain = engineChain(engines, engineId, call.category);
  const failedOver: string[] = [];
  for (let i = 0; ; i++) {
    const id = chain[i]!;
    const last = i === chain.length - 1;
    const remaining = Math.max(0, call.deadlineAt - Date.now());
    const budget = last
      ? undefined
      : AbortSignal.timeout(Math.max(1, Math.floor(remaining - Math.min(FAILOVER_RESERVE_MS, remaining / 2))));
    const signal = budget ? AbortSignal.any([call.signal, budget]) : call.signal;
    try {
      const engine = await engines.get(id);
      const output = await runEngine(engine, { ...call, signal });
      const outfit = call.lowerGarment !== undefined;
      return {
        output,
        engineId: id,
        failedOver,
        images: outfit && !engine.outfit ? 2 : 1,
        extraGarments: outfit && engine.outfit ? 1 : 0,
      };
    } catch (err) {
      if (last || !failsOver(err, call.signal)) throw err;
      failedOver.push(id);
      log?.warn(
        {
          engine: id,
          next: chain[i + 1],
          code: isEngineError(err) ? err.code : 'ENGINE_FAILED',
          detail: isEngineError(err) ? err.detail : (err as Error)?.message,
        },
        'try-on failed over to the next engine',
      );
    }
  }
}
