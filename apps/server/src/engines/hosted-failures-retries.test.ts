/**
 * HTTP faults from each hosted engine's local stand-in (see hosted-failures.fixtures.ts): which 429s
 * and 5xx answers are retried with backoff (without starting a second prediction), how a lasting 429
 * ends as a busy failure and a lasting 500 as an engine failure, and malformed JSON, which is a failure,
 * not a crash.
 */
import { HOSTED_ENGINE_MESSAGES, MESSAGES } from '@aidressup/contract';
import { expect } from 'vitest';
import { describeHostedFailures, fails, fal, fashn, gemini, logs, type Row } from './hosted-failures.fixtures.js';

const ROWS: Row[] = [
  // ── fal.ai ──
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

  // ── FASHN ──
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

  // ── Nano Banana (Gemini) ──
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
];

describeHostedFailures('hosted engine failures: retries and faults', ROWS);
