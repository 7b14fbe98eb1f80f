/**
 * The table behind the hosted-failures-*.test.ts files: each hosted engine (fal.ai, FASHN, Nano Banana)
 * run against its local stand-in (the fal, FASHN and Gemini stand-ins from test/stand-ins, not the real
 * services), the shape of a row (how the stand-in answers, what the try-on must come to, what else must
 * hold afterwards), and `describeHostedFailures`, which starts the stand-ins and runs a file's rows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '@aidressup/contract';
import { isEngineError, type EngineError, type TryOnEngine, type TryOnOutput } from '@aidressup/engine';
import type { RecordedRequest } from '../test/stand-ins/stand-in-server.js';
import { startFalStandIn, type FalStandIn } from '../test/stand-ins/fal-stand-in.js';
import { startFashnStandIn, type FashnStandIn } from '../test/stand-ins/fashn-stand-in.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { createFalEngine } from './fal.js';
import { createFashnEngine } from './fashn.js';
import { createNanoBananaEngine } from './nano-banana.js';
import type { HostedEngineDeps } from './hosted-call.js';

export const FAL_KEY = 'fal-key-id:fal-key-secret-abcdef123456';
const FAL_MODEL = 'fal-ai/fashn/tryon/v1.6';
export const FASHN_KEY = 'fa-test-secret-key-0123456789';
export const GEMINI_KEY = 'AIzaSy-test-key-1234567890abcdef';
const GEMINI_MODEL = 'gemini-3.1-flash-image';
export const GEMINI_OLD = 'gemini-2.5-flash-image';

type Provider = 'fal' | 'fashn' | 'nano-banana';

/** The stand-ins, started by `describeHostedFailures` before its rows run and reset before each. */
export let fal: FalStandIn;
export let fashn: FashnStandIn;
export let gemini: GeminiStandIn;
let person: Buffer;
let garment: Buffer;
/** What the engines logged during the current row (emptied before each row; a step may empty it too). */
export const logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];

/** How one try-on is made: the engine's deadline, key or model, the category, the caller's signal. */
interface Try {
  deadlineMs?: number;
  key?: string;
  model?: string;
  category?: Category;
  signal?: AbortSignal;
}

/** One provider as the table sees it: its engine against its stand-in, and what the stand-in saw. */
export interface Harness {
  key: string;
  engine(t?: Try): TryOnEngine;
  /** The try-on requests proper: fal's submits, FASHN's runs, Gemini's generateContent calls. */
  calls(): RecordedRequest[];
  /** Status polls (fal and FASHN; Gemini answers at once). */
  polls(): RecordedRequest[];
  /** Request ids the provider issued, oldest first. */
  ids(): string[];
}

function deps(t: Try, queued: boolean): HostedEngineDeps {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'info', obj, msg }),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'warn', obj, msg }),
  };
  return {
    retry: { baseMs: 5, maxMs: 20 },
    ...(queued ? { pollIntervalMs: 10, maxPollIntervalMs: 30 } : {}),
    deadlineMs: t.deadlineMs ?? 10_000,
    logger,
  };
}

const HARNESS: Record<Provider, Harness> = {
  fal: {
    key: FAL_KEY,
    engine: (t = {}) =>
      createFalEngine({ key: t.key ?? FAL_KEY, baseUrl: fal.url, model: t.model ?? FAL_MODEL }, deps(t, true)),
    calls: () => fal.submitCalls(),
    polls: () => fal.statusCalls(),
    ids: () => fal.requestIds,
  },
  fashn: {
    key: FASHN_KEY,
    engine: (t = {}) => createFashnEngine({ apiKey: t.key ?? FASHN_KEY, baseUrl: fashn.url }, deps(t, true)),
    calls: () => fashn.runCalls(),
    polls: () => fashn.statusCalls(),
    ids: () => fashn.predictionIds,
  },
  'nano-banana': {
    key: GEMINI_KEY,
    engine: (t = {}) =>
      createNanoBananaEngine(
        { apiKey: t.key ?? GEMINI_KEY, baseUrl: gemini.url, model: t.model ?? GEMINI_MODEL },
        deps(t, false),
      ),
    calls: () => gemini.calls(),
    polls: () => [],
    ids: () => [],
  },
};

/** What a try-on must come to: a result, or an engine error with this code (and message, detail). */
type Outcome =
  | 'ok'
  | {
      code: EngineError['code'];
      message?: string;
      /** Each must be in the detail; a function reads it from the stand-in (a request id). */
      detail?: Array<string | ((h: Harness) => string)>;
      /** None may be in the message or the detail. */
      hidden?: string[];
    };

interface Step {
  /** How the stand-in answers this try-on (queued answers, a lasting fallback, faults on polls). */
  answers?: () => void;
  with?: Try;
  expect: Outcome;
  /** What else holds afterwards; `idsBefore` is how many request ids the provider had issued before. */
  then?: (h: Harness, r: { idsBefore: number; ms: number }) => unknown;
}

export interface Row {
  provider: Provider;
  name: string;
  steps: Step[];
  /** Instead of making the steps' try-ons one after the other: what the row does, one result per step. */
  act?: (h: Harness) => Promise<Array<TryOnOutput | EngineError>>;
}

export const lastId = (h: Harness) => h.ids().at(-1)!;
export const fails = (
  code: EngineError['code'],
  message?: string,
  detail?: Array<string | ((h: Harness) => string)>,
) => ({
  code,
  ...(message !== undefined ? { message } : {}),
  ...(detail ? { detail } : {}),
});

/** One try-on with the provider's engine; an engine error is returned, not thrown. */
export async function attempt(h: Harness, t: Try = {}): Promise<TryOnOutput | EngineError> {
  try {
    return await h
      .engine(t)
      .tryOn({ person, garment, category: t.category ?? 'upper_body', ...(t.signal ? { signal: t.signal } : {}) });
  } catch (err) {
    if (isEngineError(err)) return err;
    throw err;
  }
}

function expectOutcome(h: Harness, got: TryOnOutput | EngineError, want: Outcome): void {
  if (want === 'ok') {
    if (isEngineError(got)) throw new Error(`expected a result, got ${got.code}: ${got.detail ?? got.message}`);
    expect(got.image.length).toBeGreaterThan(1000);
    return;
  }
  if (!isEngineError(got)) throw new Error(`expected the try-on to fail with ${want.code}`);
  expect(got.code).toBe(want.code);
  if (want.message !== undefined) expect(got.message).toBe(want.message);
  for (const part of want.detail ?? []) expect(got.detail).toContain(typeof part === 'function' ? part(h) : part);
  for (const secret of want.hidden ?? []) expect(`${got.message} ${got.detail}`).not.toContain(secret);
}

/** Starts the three stand-ins and runs each row as one test named `$provider: $name`. */
export function describeHostedFailures(title: string, rows: Row[]): void {
  describe(title, () => {
    beforeAll(async () => {
      [fal, fashn, gemini, person, garment] = await Promise.all([
        startFalStandIn({ key: FAL_KEY, model: FAL_MODEL }),
        startFashnStandIn({ apiKey: FASHN_KEY }),
        // serves the current model and the older 2.5 one (not the retired previews)
        startGeminiStandIn({ apiKey: GEMINI_KEY, model: [GEMINI_MODEL, GEMINI_OLD] }),
        syntheticPhoto(1600, 2400, { seed: 21 }),
        syntheticPhoto(1000, 1000, { seed: 22 }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([fal?.close(), fashn?.close(), gemini?.close()]);
    });
    beforeEach(() => {
      fal.reset();
      fashn.reset();
      gemini.reset();
      logs.length = 0;
    });

    it.each(rows)('$provider: $name', async (row) => {
      const h = HARNESS[row.provider];
      if (row.act) {
        for (const step of row.steps) step.answers?.();
        const idsBefore = h.ids().length;
        const started = performance.now();
        const results = await row.act(h);
        expect(results).toHaveLength(row.steps.length);
        for (const [i, step] of row.steps.entries()) {
          expectOutcome(h, results[i]!, step.expect);
          await step.then?.(h, { idsBefore, ms: performance.now() - started });
        }
        return;
      }
      for (const step of row.steps) {
        step.answers?.();
        const idsBefore = h.ids().length;
        const started = performance.now();
        const got = await attempt(h, step.with);
        const ms = performance.now() - started;
        expectOutcome(h, got, step.expect);
        await step.then?.(h, { idsBefore, ms });
      }
    });
  });
}
