/**
 * What a refusal can offer instead: for GARMENT_WORN (the built-in engine cannot use a photo of
 * the garment being worn), a hosted engine that dresses from such photos, enabled and up, which the
 * page offers as "Try with <engine>".
 */
import type { AlternativeEngine, ErrorCode } from '@aidressup/contract';
import type { EngineRegistry } from '../engines/registry.js';

/**
 * The first enabled engine other than `engineId` that takes worn garments and is not down
 * (a degraded one still answers), or undefined.
 */
export function wornGarmentAlternative(
  engines: Pick<EngineRegistry, 'list' | 'status'>,
  engineId: string,
): AlternativeEngine | undefined {
  const status = engines.status();
  const found = engines.list().find((e) => e.id !== engineId && e.takesWornGarments && status[e.id]?.status !== 'down');
  return found ? { id: found.id, label: found.label } : undefined;
}

/** The fields a refusal's answer adds for the page: the engine to offer, when there is one. */
export function refusalExtra(
  engines: Pick<EngineRegistry, 'list' | 'status'> | undefined,
  code: ErrorCode,
  engineId: string,
): { alternativeEngine: AlternativeEngine } | undefined {
  if (code !== 'GARMENT_WORN' || !engines) return undefined;
  const alternativeEngine = wornGarmentAlternative(engines, engineId);
  return alternativeEngine ? { alternativeEngine } : undefined;
}
