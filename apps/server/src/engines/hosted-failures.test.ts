/**
 * How each hosted engine fails, as one table: a row is a provider, how its local stand-in answers,
 * and what the try-on must come to (the error code, message and detail, or a result after retries),
 * with what else must hold afterwards (the calls made, requests aborted, log lines).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTED_ENGINE_MESSAGES, MESSAGES, type Category } from '@aidressup/contract';
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

const FAL_KEY = 'fal-key-id:fal-key-secret-abcdef123456';
const FAL_MODEL = 'fal-ai/fashn/tryon/v1.6';
const FASHN_KEY = 'fa-test-secret-key-0123456789';
const GEMINI_KEY = 'AIzaSy-test-key-1234567890abcdef';
const GEMINI_MODEL = 'gemini-3.1-flash-image';
const GEMINI_OLD = 'gemini-2.5-flash-image';

type Provider = 'fal' | 'fashn' | 'nano-banana';

let fal: FalStandIn;
let fashn: FashnStandIn;
let gemini: GeminiStandIn;
let person: Buffer;
let garment: Buffer;
let logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }>;

/** How one try-on is made: the engine's deadline, key or model, the category, the caller's signal. */
interface Try {
  deadlineMs?: number;
  key?: string;
  model?: string;
  category?: Category;
  signal?: AbortSignal;
}

/** One provider as the table sees it: its engine against its stand-in, and what the stand-in saw. */
interface Harness {
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

interface Row {
  provider: Provider;
  name: string;
  steps: Step[];
  /** Instead of making the steps' try-ons one after the other: what the row does, one result per step. */
  act?: (h: Harness) => Promise<Array<TryOnOutput | EngineError>>;
}

const lastId = (h: Harness) => h.ids().at(-1)!;
const fails = (code: EngineError['code'], message?: string, detail?: Array<string | ((h: Harness) => string)>) => ({
  code,
  ...(message !== undefined ? { message } : {}),
  ...(detail ? { detail } : {}),
});
/** The request the try-on made first was closed by the engine before the stand-in answered. */
const aborted = (requests: () => RecordedRequest[]) =>
  expect.poll(() => requests()[0]?.abortedByClient, { timeout: 15_000 }).toBe(true);
/** The caller aborts its signal once the stand-in holds the `pending` request, here the first of `requests`. */
const callerAborts =
  (requests: (h: Harness) => RecordedRequest[]) =>
  async (h: Harness): Promise<Array<TryOnOutput | EngineError>> => {
    const ac = new AbortController();
    const pending = attempt(h, { signal: ac.signal });
    await expect.poll(() => requests(h).length, { timeout: 15_000 }).toBe(1);
    ac.abort();
    return [await pending];
  };

/** FASHN's error names (the current SDK's, then older docs' still understood) and what each becomes. */
const FASHN_FAILURES: Array<[string, EngineError['code'], string]> = [
  ['ContentModerationError', 'CONTENT_BLOCKED', MESSAGES.contentBlocked],
  ['ThirdPartyError', 'CONTENT_BLOCKED', MESSAGES.contentBlocked],
  ['PoseError', 'PERSON_NOT_FOUND', HOSTED_ENGINE_MESSAGES.poseNotFound],
  ['ImageLoadError', 'ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.photoUnreadable],
  ['InputValidationError', 'ENGINE_FAILED', MESSAGES.engineFailed],
  // PipelineError is retried once (see fashn.test.ts); failing twice ends like the others
  ['PipelineError', 'ENGINE_FAILED', MESSAGES.engineFailed],
  ['3rdPartyProviderError', 'ENGINE_FAILED', MESSAGES.engineFailed],
  ['InternalServerError', 'ENGINE_FAILED', MESSAGES.engineFailed],
  ['SomethingNewError', 'ENGINE_FAILED', MESSAGES.engineFailed],
  ['NSFWError', 'CONTENT_BLOCKED', MESSAGES.contentBlocked],
  ['PhotoTypeError', 'GARMENT_NOT_SEPARABLE', HOSTED_ENGINE_MESSAGES.garmentUnrecognised],
];

const ROWS: Row[] = [
  // ── fal.ai ──
  {
    provider: 'fal',
    name: 'a content policy violation is a content block',
    steps: [
      {
        answers: () =>
          fal.enqueueSubmit({
            kind: 'accept',
            outcome: {
              kind: 'model-error',
              type: 'content_policy_violation',
              msg: 'The content could not be processed because it contained material flagged by a content checker.',
            },
          }),
        expect: fails('CONTENT_BLOCKED', MESSAGES.contentBlocked, ['content_policy_violation', lastId]),
      },
    ],
  },
  {
    provider: 'fal',
    name: "FASHN's pose error reported through fal is a person-not-found refusal",
    steps: [
      {
        answers: () =>
          fal.enqueueSubmit({
            kind: 'accept',
            outcome: {
              kind: 'model-error',
              type: 'value_error',
              msg: 'PoseError: could not detect the body pose in the model image',
            },
          }),
        expect: fails('PERSON_NOT_FOUND', HOSTED_ENGINE_MESSAGES.poseNotFound),
      },
    ],
  },
  {
    provider: 'fal',
    name: "FASHN's current error names through fal: ThirdPartyError and ContentModerationError are content blocks",
    steps: ['ThirdPartyError', 'ContentModerationError'].map((name) => ({
      answers: () =>
        fal.enqueueSubmit({
          kind: 'accept',
          outcome: { kind: 'model-error', type: 'value_error', msg: `${name}: the image was refused` },
        }),
      expect: fails('CONTENT_BLOCKED', MESSAGES.contentBlocked, [name]),
    })),
  },
  {
    provider: 'fal',
    name: "fal's own request timeout is a timeout; an empty result is a no-image failure",
    steps: [
      {
        answers: () =>
          fal.enqueueSubmit(
            {
              kind: 'accept',
              outcome: {
                kind: 'request-error',
                status: 504,
                errorType: 'request_timeout',
                detail: 'Request timed out',
              },
            },
            { kind: 'accept', outcome: { kind: 'completed', output: 'none' } },
          ),
        expect: fails('ENGINE_TIMEOUT'),
      },
      { expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage) },
    ],
  },
  {
    provider: 'fal',
    name: 'retries 429 on submit with backoff, then succeeds; a lasting 429 is a busy failure',
    steps: [
      {
        answers: () => fal.enqueueSubmit({ kind: 'http', status: 429 }, { kind: 'http', status: 429 }),
        expect: 'ok',
        then: (h) => expect(h.calls()).toHaveLength(3),
      },
      {
        answers: () => {
          fal.requests.length = 0;
          fal.fallbackSubmit = { kind: 'http', status: 429 };
        },
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy),
        then: (h) => expect(h.calls()).toHaveLength(4),
      },
    ],
  },
  {
    provider: 'fal',
    name: 'retries a 500 on submit and on a status poll; a lasting 500 is an engine failure',
    steps: [
      {
        answers: () => {
          fal.enqueueSubmit({ kind: 'http', status: 500 });
          fal.enqueuePollFault({ kind: 'http', status: 500 });
        },
        expect: 'ok',
        then: (h, { idsBefore }) => {
          expect(h.calls()).toHaveLength(2);
          expect(h.ids().length - idsBefore).toBe(1);
        },
      },
      {
        answers: () => (fal.fallbackSubmit = { kind: 'http', status: 500 }),
        expect: fails('ENGINE_FAILED', MESSAGES.engineFailed, ['HTTP 500']),
      },
    ],
  },
  {
    provider: 'fal',
    name: 'malformed JSON on submit or status is an engine failure',
    steps: [
      {
        answers: () => fal.enqueueSubmit({ kind: 'malformed' }),
        expect: fails('ENGINE_FAILED', undefined, ['not JSON']),
      },
      {
        answers: () => fal.enqueuePollFault({ kind: 'malformed' }),
        expect: fails('ENGINE_FAILED', undefined, ['not JSON']),
      },
    ],
  },
  {
    provider: 'fal',
    name: 'a submit that hangs past the deadline times out and is aborted',
    steps: [
      {
        answers: () => fal.enqueueSubmit({ kind: 'hang' }),
        with: { deadlineMs: 4_000 },
        expect: fails('ENGINE_TIMEOUT', MESSAGES.engineTimeout),
        then: (h) => aborted(h.calls),
      },
    ],
  },
  {
    provider: 'fal',
    name: 'a request that never completes times out at our deadline and is cancelled at fal',
    steps: [
      {
        answers: () => fal.enqueueSubmit({ kind: 'accept', outcome: { kind: 'in-progress-forever' } }),
        with: { deadlineMs: 6_000 },
        expect: fails('ENGINE_TIMEOUT', undefined, [lastId]),
        then: async (h) => {
          await expect
            .poll(() => fal.cancelCalls().map((r) => r.url), { timeout: 15_000 })
            .toEqual([`/fal-ai/fashn/requests/${lastId(h)}/cancel`]);
          expect(fal.cancelCalls()[0]!.headers.authorization).toBe(`Key ${FAL_KEY}`);
        },
      },
    ],
  },
  {
    provider: 'fal',
    name: "aborting the caller's signal aborts a pending status poll",
    act: callerAborts((h) => h.polls()),
    steps: [
      {
        answers: () => fal.enqueuePollFault({ kind: 'hang' }),
        expect: fails('ENGINE_TIMEOUT'),
        then: (h) => aborted(h.polls),
      },
    ],
  },
  {
    provider: 'fal',
    name: 'a wrong key fails without revealing it; logs carry the request id and never the key',
    steps: [
      {
        with: { key: 'fal-wrong:key-77777777' },
        expect: { ...fails('ENGINE_FAILED', undefined, ['HTTP 401']), hidden: ['fal-wrong:key-77777777'] },
      },
      {
        answers: () => (logs = []),
        expect: 'ok',
        then: (h) => {
          expect(logs.find((l) => l.msg === 'hosted try-on succeeded')?.obj.requestId).toBe(lastId(h));
          expect(JSON.stringify(logs)).not.toContain(FAL_KEY);
        },
      },
    ],
  },

  // ── FASHN ──
  ...FASHN_FAILURES.map(([name, code, message]): Row => ({
    provider: 'fashn',
    name: `a failed prediction with ${name} becomes ${code}`,
    steps: [
      {
        answers: () =>
          // a PipelineError gets one new run: it fails twice here
          fashn.enqueueRun(
            ...Array.from({ length: name === 'PipelineError' ? 2 : 1 }, () => ({
              kind: 'accept' as const,
              outcome: { kind: 'failed' as const, name, message: `${name}: details from the model` },
            })),
          ),
        expect: fails(code, message, [name, lastId]),
        then: () =>
          expect(logs.find((l) => l.msg === 'fashn credits used')?.obj).toMatchObject({
            creditsUsed: 0,
            status: 'failed',
          }),
      },
    ],
  })),
  {
    provider: 'fashn',
    name: 'retries 429 rate and concurrency limits with backoff, then succeeds',
    steps: [
      {
        answers: () =>
          fashn.enqueueRun(
            { kind: 'http', status: 429, error: 'RateLimitExceeded', message: 'Too many requests' },
            {
              kind: 'http',
              status: 429,
              error: 'ConcurrencyLimitExceeded',
              message: 'Too many concurrent predictions',
            },
          ),
        expect: 'ok',
        then: (h) => {
          expect(h.calls()).toHaveLength(3);
          expect(h.ids().length).toBeGreaterThan(0);
        },
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'does not retry a 429 for exhausted credits',
    steps: [
      {
        answers: () =>
          fashn.enqueueRun({ kind: 'http', status: 429, error: 'OutOfCredits', message: 'No API credits remaining' }),
        expect: fails('ENGINE_FAILED', MESSAGES.engineFailed, ['OutOfCredits']),
        then: (h) => expect(h.calls()).toHaveLength(1),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a lasting 429 ends as a busy failure',
    steps: [
      {
        answers: () => (fashn.fallbackRun = { kind: 'http', status: 429, error: 'RateLimitExceeded' }),
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy),
        then: (h) => expect(h.calls()).toHaveLength(6),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'retries a 500 on run and on a status poll without starting a second prediction',
    steps: [
      {
        answers: () => {
          fashn.enqueueRun({ kind: 'http', status: 500, error: 'InternalServerError' });
          fashn.enqueuePollFault({ kind: 'http', status: 500 }, { kind: 'http', status: 503 });
        },
        expect: 'ok',
        then: (h, { idsBefore }) => {
          expect(h.calls()).toHaveLength(2);
          expect(h.ids().length - idsBefore).toBe(1);
        },
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a lasting 500 is an engine failure',
    steps: [
      {
        answers: () =>
          (fashn.fallbackRun = {
            kind: 'http',
            status: 500,
            error: 'InternalServerError',
            message: 'Internal error',
          }),
        expect: fails('ENGINE_FAILED', MESSAGES.engineFailed, ['HTTP 500']),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'malformed JSON from run or status is an engine failure',
    steps: [
      {
        answers: () => fashn.enqueueRun({ kind: 'malformed' }),
        expect: fails('ENGINE_FAILED', undefined, ['not JSON']),
      },
      {
        answers: () => fashn.enqueuePollFault({ kind: 'malformed' }),
        expect: fails('ENGINE_FAILED', undefined, ['not JSON']),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a run request that hangs past the deadline times out and is aborted',
    steps: [
      {
        answers: () => fashn.enqueueRun({ kind: 'hang' }),
        with: { deadlineMs: 4_000 },
        expect: fails('ENGINE_TIMEOUT', MESSAGES.engineTimeout),
        then: (h) => aborted(h.calls),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a prediction that never finishes times out at our deadline; time_out and canceled end it at once',
    steps: [
      {
        answers: () => fashn.enqueueRun({ kind: 'accept', outcome: { kind: 'processing-forever' } }),
        with: { deadlineMs: 6_000 },
        expect: fails('ENGINE_TIMEOUT', undefined, [lastId]),
        then: (h, { ms }) => {
          expect(ms).toBeLessThan(15_000);
          expect(h.polls().length).toBeGreaterThan(2);
        },
      },
      {
        answers: () =>
          fashn.enqueueRun(
            { kind: 'accept', outcome: { kind: 'time_out' } },
            { kind: 'accept', outcome: { kind: 'canceled' } },
          ),
        expect: fails('ENGINE_TIMEOUT'),
      },
      { expect: fails('ENGINE_FAILED') },
    ],
  },
  {
    provider: 'fashn',
    name: "aborting the caller's signal aborts a pending status poll",
    act: callerAborts((h) => h.polls()),
    steps: [
      {
        answers: () => fashn.enqueuePollFault({ kind: 'hang' }),
        expect: fails('ENGINE_TIMEOUT'),
        then: (h) => aborted(h.polls),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a completed prediction without output is a no-image failure',
    steps: [
      {
        answers: () => fashn.enqueueRun({ kind: 'accept', outcome: { kind: 'completed', output: 'none' } }),
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage),
      },
    ],
  },
  {
    provider: 'fashn',
    name: 'a wrong key fails without revealing either key; logs carry the prediction id and never the key',
    steps: [
      {
        with: { key: 'fa-wrong-key-999999' },
        expect: { ...fails('ENGINE_FAILED', undefined, ['UnauthorizedAccess']), hidden: ['fa-wrong-key-999999'] },
      },
      {
        answers: () => (logs = []),
        expect: 'ok',
        then: (h) => {
          expect(logs.find((l) => l.msg === 'hosted try-on succeeded')?.obj.requestId).toBe(lastId(h));
          expect(JSON.stringify(logs)).not.toContain(FASHN_KEY);
          expect(JSON.stringify(logs)).not.toContain('cdn-signature');
        },
      },
    ],
  },

  // ── Nano Banana (Gemini) ──
  {
    provider: 'nano-banana',
    name: 'a safety finish is a content block with the safety message',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'finish', reason: 'IMAGE_SAFETY' }),
        expect: fails('CONTENT_BLOCKED', MESSAGES.contentBlocked, ['IMAGE_SAFETY']),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'IMAGE_PROHIBITED_CONTENT and a blocked prompt are content blocks too',
    steps: [
      {
        answers: () =>
          gemini.enqueue({ kind: 'finish', reason: 'IMAGE_PROHIBITED_CONTENT' }, { kind: 'blocked', reason: 'SAFETY' }),
        expect: fails('CONTENT_BLOCKED'),
      },
      { expect: fails('CONTENT_BLOCKED', undefined, ['blockReason=SAFETY']) },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'blockReason OTHER is not called a safety refusal',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'blocked', reason: 'OTHER' }),
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, ['blockReason=OTHER']),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'an answer whose only image is a thought is not a result',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'thoughts-only' }),
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, ['only 2 thought part(s)']),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'a retired or unknown model with no replacement listed is a 502-class failure with a clear message and an operator log line, not retried',
    steps: [
      {
        // the model list offers nothing to switch to
        answers: () => {
          gemini.listing = [];
        },
        with: { model: 'gemini-3.1-flash-image-preview' },
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable, [
          'HTTP 404 NOT_FOUND for model gemini-3.1-flash-image-preview',
        ]),
        then: (h) => {
          expect(h.calls()).toHaveLength(1);
          const line = logs.find((l) => l.level === 'warn' && l.msg?.includes('set GEMINI_MODEL to a current model'));
          expect(line?.msg).toBe(
            'nano-banana: the Gemini model "gemini-3.1-flash-image-preview" is not available (retired or unknown): set GEMINI_MODEL to a current model (gemini-3.1-flash-image or gemini-3-pro-image)',
          );
          expect(line?.obj).toMatchObject({
            engine: 'nano-banana',
            model: 'gemini-3.1-flash-image-preview',
            status: 404,
          });
        },
      },
      {
        // the same for a 400 that says the model was retired
        answers: () =>
          gemini.enqueue({
            kind: 'http',
            status: 400,
            message: 'Model gemini-2.5-flash-image has been retired and is no longer available.',
          }),
        with: { model: GEMINI_OLD },
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'no image (NO_IMAGE, text only, no candidates) is a failure with its own message',
    steps: [
      {
        answers: () =>
          gemini.enqueue(
            { kind: 'finish', reason: 'NO_IMAGE' },
            { kind: 'text-only', text: 'Here is a description instead.' },
            { kind: 'no-candidates' },
          ),
        with: { category: 'dresses' },
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, ['NO_IMAGE']),
      },
      {
        with: { category: 'dresses' },
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, [
          'no image part',
          'Here is a description instead.',
        ]),
      },
      { with: { category: 'dresses' }, expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage) },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'retries 429 with backoff, then succeeds',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'http', status: 429 }, { kind: 'http', status: 429, retryAfter: '0' }),
        expect: 'ok',
        then: (h) => {
          expect(h.calls()).toHaveLength(3);
          expect(logs.filter((l) => l.msg === 'hosted engine: retrying')).toHaveLength(2);
        },
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'a lasting 429 ends as a busy failure after the retries',
    steps: [
      {
        answers: () => (gemini.fallback = { kind: 'http', status: 429 }),
        expect: fails('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, ['HTTP 429 RESOURCE_EXHAUSTED']),
        then: (h) => expect(h.calls()).toHaveLength(4),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'a 500 is retried; a lasting 500 is an engine failure',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'http', status: 500 }),
        expect: 'ok',
        then: (h) => expect(h.calls()).toHaveLength(2),
      },
      {
        answers: () => {
          gemini.requests.length = 0;
          gemini.fallback = { kind: 'http', status: 500 };
        },
        expect: fails('ENGINE_FAILED', MESSAGES.engineFailed, ['HTTP 500']),
        then: (h) => expect(h.calls()).toHaveLength(4),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'malformed JSON is an engine failure, not a crash',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'malformed' }),
        expect: fails('ENGINE_FAILED', MESSAGES.engineFailed, ['not JSON']),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'a hang past the deadline times out and aborts the request',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'hang' }),
        with: { deadlineMs: 4_000 },
        expect: fails('ENGINE_TIMEOUT', MESSAGES.engineTimeout),
        then: async (h, { ms }) => {
          expect(ms).toBeLessThan(15_000);
          await aborted(h.calls);
        },
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: "aborting the caller's signal aborts the request",
    act: callerAborts((h) => h.calls()),
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'hang' }),
        expect: fails('ENGINE_TIMEOUT', undefined, ['aborted by caller']),
        then: (h) => aborted(h.calls),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'never puts the key in an error or a log line, even when the provider echoes it',
    steps: [
      {
        answers: () => gemini.enqueue({ kind: 'echo-key' }),
        expect: { ...fails('ENGINE_FAILED', undefined, ['[redacted]']), hidden: [GEMINI_KEY] },
        then: () => expect(JSON.stringify(logs)).not.toContain(GEMINI_KEY),
      },
    ],
  },
  {
    provider: 'nano-banana',
    name: 'a wrong key is an engine failure that shows the provider answer only in the detail',
    steps: [
      {
        with: { key: 'wrong-key-000000' },
        expect: {
          ...fails('ENGINE_FAILED', MESSAGES.engineFailed, ['API key not valid']),
          hidden: ['wrong-key-000000'],
        },
      },
    ],
  },
];

async function attempt(h: Harness, t: Try = {}): Promise<TryOnOutput | EngineError> {
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
  logs = [];
});

describe('hosted engine failures', () => {
  it.each(ROWS)('$provider: $name', async (row) => {
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
