/**
 * Worker-thread entry for the local engine pool. Each worker loads the models once
 * (starting as soon as the worker starts) and runs one try-on at a time.
 */
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { loadModels } from './models.js';
import { runTryOn } from './pipeline.js';
import { warmUp } from './warm-up.js';
import { isEngineError } from './types.js';

export type WorkerTask =
  | { kind: 'warm' }
  | { kind: 'tryOn'; person: Uint8Array; garment: Uint8Array; category: Category; lowerGarment?: Uint8Array };

export type WorkerResult =
  | { ok: true; kind: 'warm'; loadMs: number }
  | { ok: true; kind: 'tryOn'; image: Uint8Array; mimeType: 'image/jpeg'; info: unknown }
  | { ok: false; code: string; message: string; detail?: string };

// One image operation at a time per worker and no libvips cache: the pool is the
// parallelism, and memory stays flat.
sharp.cache(false);
sharp.concurrency(1);

const started = performance.now();
const models = loadModels();
// Keep an early load failure from becoming an unhandled rejection; tasks report it.
models.catch(() => undefined);
// The worker is ready once the models are loaded and have run once. The per-pixel stages
// are then run once on small synthetic data so that their code is compiled before the
// first real request (a request that arrives meanwhile runs alongside it).
models.then((m) => warmUp(m)).catch(() => undefined);

export default async function handle(task: WorkerTask): Promise<WorkerResult> {
  try {
    const m = await models;
    if (task.kind === 'warm') return { ok: true, kind: 'warm', loadMs: Math.round(performance.now() - started) };
    // A whole outfit: the bottom first, then the top over that result, in this one task.
    const bottom = task.lowerGarment
      ? await runTryOn(m, { person: task.person, garment: task.lowerGarment, category: 'lower_body' })
      : undefined;
    const r = await runTryOn(
      m,
      bottom ? { person: bottom.image, garment: task.garment, category: 'upper_body' } : task,
    );
    if (bottom)
      r.info.timings = {
        ...Object.fromEntries(Object.entries(bottom.info.timings).map(([k, v]) => [`lower:${k}`, v])),
        ...r.info.timings,
      };
    return { ok: true, kind: 'tryOn', image: r.image, mimeType: r.mimeType, info: r.info };
  } catch (e) {
    if (isEngineError(e))
      return { ok: false, code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) };
    return {
      ok: false,
      code: 'ENGINE_FAILED',
      message: '',
      detail: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e),
    };
  }
}
