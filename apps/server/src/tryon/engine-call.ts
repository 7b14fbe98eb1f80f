/**
 * A whole outfit (a top over trousers or a skirt) on any engine. An engine that dresses an
 * outfit itself (`engine.outfit`, the built-in one) gets both garments in one call; for any other
 * engine the bottom is dressed first (lower_body), then the top (upper_body) over that result:
 * two calls in sequence under the same signal. Used by the in-process runner and the queue workers.
 */
import type { TryOnCategory } from '@aidressup/contract';
import type { KeptPersonInput, TryOnEngine, TryOnOutput } from '@aidressup/engine';

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
