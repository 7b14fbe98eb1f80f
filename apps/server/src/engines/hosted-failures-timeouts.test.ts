/**
 * Hosted engines against their local stand-ins (see hosted-failures.fixtures.ts) when the answer does not
 * come in time: a request that hangs past our deadline times out and is aborted, a job that never finishes
 * times out at our deadline (and is cancelled at fal), FASHN's time_out and canceled end a prediction at
 * once, and aborting the caller's signal aborts the pending request.
 */
import { MESSAGES } from '@aidressup/contract';
import type { EngineError, TryOnOutput } from '@aidressup/engine';
import { expect } from 'vitest';
import type { RecordedRequest } from '../test/stand-ins/stand-in-server.js';
import {
  attempt,
  describeHostedFailures,
  fails,
  fal,
  FAL_KEY,
  fashn,
  gemini,
  lastId,
  type Harness,
  type Row,
} from './hosted-failures.fixtures.js';

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

const ROWS: Row[] = [
  // ── fal.ai ──
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

  // ── FASHN ──
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

  // ── Nano Banana (Gemini) ──
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
];

describeHostedFailures('hosted engine failures: deadlines and aborts', ROWS);
