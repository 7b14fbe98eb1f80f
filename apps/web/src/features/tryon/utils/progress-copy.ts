/** What the page says about a try-on's progress and its engine (pure). */
import { ENGINE_ESTIMATE_SECONDS, MESSAGES, type PublicConfig, type TryOnStage } from '@aidressup/contract';

export type EngineKind = 'local' | 'hosted';
export interface Estimate {
  min: number;
  max: number;
}
type EngineEntry = PublicConfig['engines'][number];

/** The id of the built-in engine. */
export const LOCAL_ENGINE_ID = 'local';

/** An engine's kind: the server's word, else the built-in engine by its id, else hosted. */
export function engineKind(engine: Pick<EngineEntry, 'id' | 'kind'> | undefined): EngineKind {
  if (!engine) return 'hosted';
  return engine.kind ?? (engine.id === LOCAL_ENGINE_ID ? 'local' : 'hosted');
}

export function findEngine(
  config: Pick<PublicConfig, 'engines'> | null,
  id: string | null | undefined,
): EngineEntry | undefined {
  return config?.engines.find((e) => e.id === id);
}

/** The engine's own estimate of a whole try-on, else the contract's figure for its kind. */
export function engineEstimate(engine: EngineEntry | undefined): Estimate {
  return engine?.estimateSeconds ?? ENGINE_ESTIMATE_SECONDS[engineKind(engine)];
}

/** The first hosted engine the server offers, for the "photo-real result" pointer. */
export function firstHostedEngine(config: Pick<PublicConfig, 'engines'> | null): EngineEntry | undefined {
  return config?.engines.find((e) => engineKind(e) === 'hosted');
}

/**
 * The line under 'Initializing AI model...'. Hosted engines keep the product's words ("processing
 * may take 30-60 seconds"); the built-in engine says seconds.
 */
export function estimateNote(kind: EngineKind, estimate: Estimate): string {
  if (kind === 'hosted') return MESSAGES.processingNote;
  const max = Math.max(1, Math.round(estimate.max));
  if (max <= 10) return 'Usually ready in a few seconds.';
  const min = Math.max(1, Math.round(Math.min(estimate.min, estimate.max)));
  return min === max ? `Usually ready in about ${max} seconds.` : `Usually ready in ${min}-${max} seconds.`;
}

/** The stage in words; null for stages that add nothing to show (a failure: the answer says why). */
export function stageLabel(stage: TryOnStage): string | null {
  switch (stage) {
    case 'queued':
      return 'Waiting for a free engine…';
    case 'reading':
      return 'Reading your photos…';
    case 'fitting':
      return 'Fitting the garment…';
    case 'finishing':
      return 'Finishing…';
    case 'done':
      return 'Done. Loading your result…';
    case 'failed':
      return null;
  }
}

/** Lowest bar position per stage, so a reported stage always shows as progress. */
const STAGE_FLOOR: Record<TryOnStage, number> = {
  queued: 3,
  reading: 10,
  fitting: 30,
  finishing: 85,
  done: 95,
  failed: 3,
};

/**
 * Estimated progress (percent) after `elapsedMs` for a try-on estimated at `estimate` seconds:
 * approaches but never reaches 95 %; for 30-60 s it is the page's former curve.
 */
export function estimatedProgress(
  elapsedMs: number,
  estimate: Estimate = ENGINE_ESTIMATE_SECONDS.hosted,
  stage?: TryOnStage | null,
): number {
  const mid = Math.max(0.5, (estimate.min + estimate.max) / 2);
  const tau = (mid * 1000) / 1.8;
  const p = 95 * (1 - Math.exp(-Math.max(0, elapsedMs) / tau));
  const floor = stage ? STAGE_FLOOR[stage] : 3;
  return Math.max(floor, Math.min(95, Math.round(p)));
}
