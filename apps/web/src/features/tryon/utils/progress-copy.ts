/** What the page says about a try-on's progress and its engine (pure). */
import { ENGINE_ESTIMATE_SECONDS, type PublicConfig, type TryOnStage } from '@aidressup/contract';
import type { MessageId, Translate } from '../../../i18n/use-t';

export type EngineKind = 'local' | 'hosted';
export interface Estimate {
  min: number;
  max: number;
}
type EngineEntry = PublicConfig['engines'][number];

/** The id of the built-in engine. */
const LOCAL_ENGINE_ID = 'local';

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

/** The engines the page offers: every one the server lists except those its health says are down. */
export function offeredEngines(config: Pick<PublicConfig, 'engines'> | null): EngineEntry[] {
  return config?.engines.filter((e) => e.status !== 'down') ?? [];
}

/**
 * The engine preselected: the server's default while it is up, else the first hosted engine that
 * is, else the first offered one (the built-in engine is always up).
 */
export function defaultOfferedEngine(
  config: Pick<PublicConfig, 'engines' | 'defaultEngine'> | null,
): string | undefined {
  const offered = offeredEngines(config);
  return (
    offered.find((e) => e.id === config?.defaultEngine)?.id ??
    offered.find((e) => engineKind(e) === 'hosted')?.id ??
    offered[0]?.id
  );
}

/** The first hosted engine the server offers (and that is up), for the "photo-real result" pointer. */
export function firstHostedEngine(config: Pick<PublicConfig, 'engines'> | null): EngineEntry | undefined {
  return offeredEngines(config).find((e) => engineKind(e) === 'hosted');
}

/**
 * The line under 'Initializing AI model...', in the page's language. Hosted engines keep the
 * product's words ("processing may take 30-60 seconds") unless their own estimate is longer; the
 * built-in engine says seconds.
 */
export function estimateNote(t: Translate, kind: EngineKind, estimate: Estimate): string {
  // A hosted engine that takes longer than the spec's 30-60 s (FASHN's Try-On Max: 50–120 s) says so.
  if (kind === 'hosted' && !(estimate.max > ENGINE_ESTIMATE_SECONDS.hosted.max)) return t('msg.processingNote');
  const max = Math.max(1, Math.round(estimate.max));
  if (max <= 10) return t('tryon.progress.fewSeconds');
  const min = Math.max(1, Math.round(Math.min(estimate.min, estimate.max)));
  return min === max ? t('tryon.progress.aboutSeconds', { max }) : t('tryon.progress.rangeSeconds', { min, max });
}

const STAGE_LABEL: Record<TryOnStage, MessageId | null> = {
  queued: 'tryon.progress.queued',
  reading: 'tryon.progress.reading',
  fitting: 'tryon.progress.fitting',
  finishing: 'tryon.progress.finishing',
  done: 'tryon.progress.done',
  failed: null,
};

/** The stage in words; null for stages that add nothing to show (a failure: the answer says why). */
export function stageLabel(t: Translate, stage: TryOnStage): string | null {
  const id = STAGE_LABEL[stage];
  return id ? t(id) : null;
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
