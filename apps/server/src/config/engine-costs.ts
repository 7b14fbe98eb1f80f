/**
 * What each engine costs per image (and per extra garment in one call), in the plans' currency
 * (USD), and which engines a try-on moves to when one fails (ENGINE_FALLBACK). The built-in prices
 * come from each provider's public price list, with the date they were read (docs/engines.md);
 * ENGINE_COSTS overrides them.
 */
import type { z } from 'zod';
import { FASHN_DEFAULT_MODEL, GEMINI_HIGH_QUALITY_MODEL, type TryOnModelPreset } from '@aidressup/contract';
import { optionalString } from './env.js';

export const EngineRoutingEnv = {
  /** `engine=next,next;engine=next`: where a try-on goes when its engine fails (not for the photos' reasons). */
  ENGINE_FALLBACK: optionalString,
  /** `engine=price[+extra][@YYYY-MM-DD];…`: per image and per extra garment, in the plans' currency. */
  ENGINE_COSTS: optionalString,
};
type Env = z.infer<z.ZodObject<typeof EngineRoutingEnv>>;

export interface EnginePrice {
  /** Micro-units of the plans' currency (1 USD = 1,000,000) per image made. */
  perImageMicros: number;
  /** Per garment beyond the first dressed in the same call. */
  perExtraGarmentMicros: number;
  source: 'price-list' | 'configured' | 'own-hardware' | 'unknown';
  /** When the price was read (YYYY-MM-DD); null when not known. */
  readOn: string | null;
}

const usd = (n: number) => Math.round(n * 1_000_000);
const listed = (perImage: number, readOn: string, perExtra = 0): EnginePrice => ({
  perImageMicros: usd(perImage),
  perExtraGarmentMicros: usd(perExtra),
  source: 'price-list',
  readOn,
});
const ownHardware: EnginePrice = { perImageMicros: 0, perExtraGarmentMicros: 0, source: 'own-hardware', readOn: null };
const unknown: EnginePrice = { perImageMicros: 0, perExtraGarmentMicros: 0, source: 'unknown', readOn: null };

/** What the default prices depend on besides the engine: its model. */
export interface PricedModels {
  geminiModel?: string | undefined;
  fashnModel?: string | undefined;
  falModel?: string | undefined;
  replicatePreset?: TryOnModelPreset | undefined;
}

/**
 * The provider's public price for one image of the engine's configured model (docs/engines.md
 * names each source and the day it was read); `unknown` where none could be read.
 */
function defaultPrice(engine: string, m: PricedModels = {}): EnginePrice {
  switch (engine) {
    case 'local':
    case 'cog':
      return ownHardware;
    case 'nano-banana':
      // 1,120 output tokens at $60 per million (1K) plus an input photo ≈ $0.0006; Pro Image $0.134.
      return m.geminiModel === GEMINI_HIGH_QUALITY_MODEL
        ? listed(0.134, '2026-11-23', 0.0006)
        : listed(0.068, '2026-11-23', 0.0006);
    case 'fashn':
      // FASHN's own price per credit was not in the pages read: FASHN v1.6 on fal is $0.075 a generation.
      return (m.fashnModel ?? FASHN_DEFAULT_MODEL) === 'tryon-max'
        ? listed(0.3, '2026-11-25')
        : listed(0.075, '2026-11-23');
    case 'fal':
      switch (m.falModel) {
        case undefined:
        case 'fal-ai/fashn/tryon/v1.6':
          return listed(0.075, '2026-11-23');
        case 'fal-ai/image-apps-v2/virtual-try-on':
          return listed(0.04, '2026-11-25');
        case 'fal-ai/flux-pro/v1/vto':
          return listed(0.0475, '2026-11-25');
        default:
          return unknown;
      }
    case 'replicate':
      // Pruna: $0.015 for the first garment, $0.008 for each further one; IDM-VTON is billed per GPU second.
      return m.replicatePreset === 'idm-vton' ? unknown : listed(0.015, '2026-11-27', 0.008);
    case 'vertex-tryon':
      // Google's Vertex AI price list could not be read from the stored copies (docs/engines.md).
      return { ...unknown, perImageMicros: usd(0.06) };
    default:
      return unknown;
  }
}

const MONEY = /^\d+(\.\d{1,6})?$/;

/** ENGINE_COSTS: `engine=0.015+0.008@2026-11-27;other=0.04`. */
function parseEngineCosts(
  value: string | undefined,
  enabled: readonly string[],
  problems: string[],
): Map<string, EnginePrice> {
  const out = new Map<string, EnginePrice>();
  if (!value) return out;
  for (const part of value
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9-]+)\s*=\s*([\d.]+)(?:\s*\+\s*([\d.]+))?(?:\s*@\s*(\d{4}-\d{2}-\d{2}))?$/.exec(part);
    if (!m || !MONEY.test(m[2]!) || (m[3] !== undefined && !MONEY.test(m[3])) || (m[4] && !isDay(m[4]))) {
      problems.push(
        `ENGINE_COSTS: "${part}" is not engine=price[+price per extra garment][@YYYY-MM-DD] (for example replicate=0.015+0.008@2026-11-27)`,
      );
      continue;
    }
    if (!enabled.includes(m[1]!)) {
      problems.push(`ENGINE_COSTS names ${m[1]}, which is not an enabled engine (enabled: ${enabled.join(', ')})`);
      continue;
    }
    out.set(m[1]!, {
      perImageMicros: usd(Number(m[2])),
      perExtraGarmentMicros: usd(Number(m[3] ?? '0')),
      source: 'configured',
      readOn: m[4] ?? null,
    });
  }
  return out;
}

function isDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** ENGINE_FALLBACK: `vertex-tryon=replicate,cog;replicate=cog`. */
function parseEngineFallback(
  value: string | undefined,
  enabled: readonly string[],
  problems: string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!value) return out;
  for (const part of value
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9-]+)\s*=\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)$/.exec(part);
    if (!m) {
      problems.push(`ENGINE_FALLBACK: "${part}" is not engine=next,next (for example vertex-tryon=replicate,cog)`);
      continue;
    }
    const from = m[1]!;
    const next = m[2]!.split(',').map((s) => s.trim());
    const unknownIds = [from, ...next].filter((id) => !enabled.includes(id));
    if (unknownIds.length > 0) {
      problems.push(
        `ENGINE_FALLBACK names ${[...new Set(unknownIds)].join(', ')}, not enabled (enabled: ${enabled.join(', ')})`,
      );
      continue;
    }
    if (next.includes(from) || new Set(next).size !== next.length) {
      problems.push(`ENGINE_FALLBACK: ${from} must not name itself or an engine twice`);
      continue;
    }
    if (out.has(from)) {
      problems.push(`ENGINE_FALLBACK names ${from} twice`);
      continue;
    }
    out.set(from, next);
  }
  return out;
}

export function routingConfig(
  e: Env,
  enabled: readonly string[],
  models: PricedModels,
  problems: string[],
): { fallback: ReadonlyMap<string, readonly string[]>; prices: ReadonlyMap<string, EnginePrice> } {
  const fallback = parseEngineFallback(e.ENGINE_FALLBACK, enabled, problems);
  const configured = parseEngineCosts(e.ENGINE_COSTS, enabled, problems);
  const prices = new Map(enabled.map((id) => [id, configured.get(id) ?? defaultPrice(id, models)]));
  return { fallback, prices };
}

/** What a try-on cost: the engine's price for each image made and each extra garment (0 when unpriced). */
export function tryOnCostMicros(
  prices: ReadonlyMap<string, EnginePrice> | undefined,
  made: { engineId: string; images: number; extraGarments: number },
): number {
  const price = prices?.get(made.engineId);
  if (!price) return 0;
  return made.images * price.perImageMicros + made.extraGarments * price.perExtraGarmentMicros;
}
