/**
 * The built-in local engine: a piscina worker-thread pool running the pipeline,
 * so the caller's event loop is never blocked.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
// The error tables only: the worker threads need not load the API schemas.
import { ENGINE_ERROR_CODES, ERROR_MESSAGES, type EngineErrorCode } from '@aidressup/contract/errors';
import {
  EngineError,
  type PersonAnalysisOutput,
  type TryOnEngine,
  type TryOnInput,
  type TryOnOutput,
} from './types.js';
import type { WorkerResult, WorkerTask } from './worker.js';
import type { ShopperFigures } from './quality.js';
import { GARMENT_CACHE_MAX_BYTES } from './garment-cache.js';

export interface LocalEngineOptions {
  /** Worker threads (default: the number of cores). */
  threads?: number;
  /**
   * Run the compiled `dist/worker.js` even when this module is loaded from source, as the
   * production server does (benchmarks use it; it must have been built).
   */
  compiledWorker?: boolean;
  /**
   * Bytes of analysed garment photos each worker holds for later try-ons of the same photo
   * (`garment-cache.ts`; 0 turns it off, as benchmarks of a fresh garment do).
   */
  garmentCacheBytes?: number;
}

/** Diagnostics the pipeline reports with each result (benchmarks, tests). */
export interface LocalTryOnInfo {
  timings: Record<string, number>;
  width: number;
  height: number;
  keypoints: { x: number; y: number; score: number }[];
  /** What a shopper sees: offset, remnant, pieces, ragged edges (see quality.ts). */
  quality: ShopperFigures;
  /** The person analysis was made for this try-on, or given (a kept photo's). */
  personAnalysis: 'analysed' | 'given';
  /** The garment photo was analysed for this try-on, or taken from the worker's garment cache. */
  garmentAnalysis: 'analysed' | 'cached';
}

export interface LocalEngine extends TryOnEngine {
  readonly id: 'local';
  warm(): Promise<void>;
  close(): Promise<void>;
  /** Same as tryOn, with the pipeline's diagnostics. */
  tryOnWithInfo(input: TryOnInput): Promise<TryOnOutput & { info: LocalTryOnInfo }>;
  analysePerson(person: Uint8Array, signal?: AbortSignal): Promise<PersonAnalysisOutput>;
}

export const LOCAL_ENGINE_LABEL = 'Built-in preview (fast)';

/** Where the worker lives: next to this module, as `.ts` under tsx/Vitest or `.js` in `dist/`. */
export function workerLocation(
  moduleUrl: string = import.meta.url,
  compiled = false,
): { filename: string; execArgv: string[] } {
  const fromSource = moduleUrl.endsWith('.ts');
  if (fromSource && compiled) return { filename: fileURLToPath(new URL('../dist/worker.js', moduleUrl)), execArgv: [] };
  const filename = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', moduleUrl));
  if (!fromSource) return { filename, execArgv: [] };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename, execArgv: ['--conditions=source', '--import', tsx] };
}

function toError(r: Extract<WorkerResult, { ok: false }>): EngineError {
  const code = (
    (ENGINE_ERROR_CODES as readonly string[]).includes(r.code) ? r.code : 'ENGINE_FAILED'
  ) as EngineErrorCode;
  return new EngineError(code, r.message || undefined, r.detail);
}

export function createLocalEngine(options: LocalEngineOptions = {}): LocalEngine {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const { filename, execArgv } = workerLocation(import.meta.url, options.compiledWorker);
  let pool: Piscina<WorkerTask, WorkerResult> | undefined;
  const getPool = () => {
    pool ??= new Piscina<WorkerTask, WorkerResult>({
      filename,
      execArgv,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      workerData: { garmentCacheBytes: options.garmentCacheBytes ?? GARMENT_CACHE_MAX_BYTES },
      // Workers need room for the models and a few full-size image buffers.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    return pool;
  };

  async function run(input: TryOnInput): Promise<TryOnOutput & { info: LocalTryOnInfo }> {
    if (input.signal?.aborted) throw new EngineError('ENGINE_TIMEOUT');
    const category = input.category;
    // Clothing only (the server refuses accessories before charging; this is the last guard).
    if (category === 'accessories')
      throw new EngineError('ENGINE_FAILED', ERROR_MESSAGES.CATEGORY_NOT_OFFERED, 'accessories on the built-in engine');
    let r: WorkerResult;
    try {
      r = await getPool().run(
        {
          kind: 'tryOn',
          person: input.person,
          garment: input.garment,
          category,
          ...(input.lowerGarment ? { lowerGarment: input.lowerGarment } : {}),
          ...(input.keptPerson ? { keptPerson: input.keptPerson } : {}),
        },
        input.signal ? { signal: input.signal } : {},
      );
    } catch (e) {
      if (input.signal?.aborted) throw new EngineError('ENGINE_TIMEOUT', undefined, 'aborted');
      throw new EngineError('ENGINE_FAILED', undefined, e instanceof Error ? e.message : String(e));
    }
    if (!r.ok) throw toError(r);
    if (r.kind !== 'tryOn') throw new EngineError('ENGINE_FAILED', undefined, 'unexpected worker reply');
    return {
      image: r.image,
      mimeType: r.mimeType,
      info: r.info as LocalTryOnInfo,
      ...(r.keptPersonAnalysis ? { keptPersonAnalysis: r.keptPersonAnalysis } : {}),
    };
  }

  async function analysePerson(person: Uint8Array, signal?: AbortSignal): Promise<PersonAnalysisOutput> {
    if (signal?.aborted) throw new EngineError('ENGINE_TIMEOUT');
    let r: WorkerResult;
    try {
      r = await getPool().run({ kind: 'analysePerson', person }, signal ? { signal } : {});
    } catch (e) {
      if (signal?.aborted) throw new EngineError('ENGINE_TIMEOUT', undefined, 'aborted');
      throw new EngineError('ENGINE_FAILED', undefined, e instanceof Error ? e.message : String(e));
    }
    if (!r.ok) throw toError(r);
    if (r.kind !== 'analysis') throw new EngineError('ENGINE_FAILED', undefined, 'unexpected worker reply');
    return { analysis: r.analysis, width: r.width, height: r.height };
  }

  return {
    id: 'local',
    label: LOCAL_ENGINE_LABEL,
    // A whole outfit runs in one worker task: the bottom, then the top over it.
    outfit: true,
    categories: ['upper_body', 'lower_body', 'dresses'],
    async tryOn(input) {
      const { image, mimeType, keptPersonAnalysis } = await run(input);
      return { image, mimeType, ...(keptPersonAnalysis ? { keptPersonAnalysis } : {}) };
    },
    tryOnWithInfo: run,
    analysePerson,
    async warm() {
      const p = getPool();
      // One warm task per thread; each worker loads its models once.
      const results = await Promise.all(Array.from({ length: threads }, () => p.run({ kind: 'warm' })));
      const failed = results.find((r) => !r.ok);
      if (failed && !failed.ok) throw toError(failed);
    },
    async close() {
      const p = pool;
      pool = undefined;
      if (p) await p.destroy();
    },
  };
}
