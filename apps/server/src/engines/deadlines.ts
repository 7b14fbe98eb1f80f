/**
 * How long one try-on may take on each engine. Every engine gets ENGINE_DEADLINE_MS (at most
 * 115 s, under the page's 120 s), except FASHN's Try-On Max, which FASHN documents at about
 * 50 s and up to 120 s: it gets 150 s (the model's bound plus upload and polling), for it only.
 */
import type { Config } from '../config.js';

/** The deadline of a try-on on FASHN's tryon-max. */
export const FASHN_MAX_DEADLINE_MS = 150_000;

export function engineDeadlineMs(config: Config, engineId: string): number {
  const base = config.engines.deadlineMs;
  if (engineId === 'fashn' && config.engines.fashn?.model === 'tryon-max') return Math.max(base, FASHN_MAX_DEADLINE_MS);
  return base;
}

/** The longest deadline of any enabled engine (for recovering try-ons left running by a crash). */
export function longestEngineDeadlineMs(config: Config): number {
  return Math.max(engineDeadlineMs(config, 'fashn'), config.engines.deadlineMs);
}

/** What the page is told a try-on on this engine takes, when it differs from the kind's default. */
export function engineEstimateOverride(config: Config, engineId: string): { min: number; max: number } | undefined {
  if (engineId === 'fashn' && config.engines.fashn?.model === 'tryon-max') return { min: 50, max: 120 };
  return undefined;
}
