/**
 * What a provider's failed answer becomes, for each hosted engine against its local stand-in (see
 * hosted-failures.fixtures.ts): refusals (content, pose, garment), FASHN's failed predictions by name,
 * fal's own request timeout, answers without an image, a retired Gemini model, and a wrong key, which
 * neither an error nor a log line may reveal (nor a key the provider echoes back).
 */
import { HOSTED_ENGINE_MESSAGES, MESSAGES } from '@aidressup/contract';
import type { EngineError } from '@aidressup/engine';
import { expect } from 'vitest';
import {
  describeHostedFailures,
  fails,
  fal,
  FAL_KEY,
  fashn,
  FASHN_KEY,
  gemini,
  GEMINI_KEY,
  GEMINI_OLD,
  lastId,
  logs,
  type Row,
} from './hosted-failures.fixtures.js';

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
    name: 'a wrong key fails without revealing it; logs carry the request id and never the key',
    steps: [
      {
        with: { key: 'fal-wrong:key-77777777' },
        expect: { ...fails('ENGINE_FAILED', undefined, ['HTTP 401']), hidden: ['fal-wrong:key-77777777'] },
      },
      {
        answers: () => (logs.length = 0),
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
        answers: () => (logs.length = 0),
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

describeHostedFailures('hosted engine failures: what the provider answers', ROWS);
