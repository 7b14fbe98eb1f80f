/**
 * `npm run check:engines` (bench/src/check-engines.ts) against the stand-ins: it is skipped
 * without keys, and with keys it makes one try-on per configured engine and reports it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEngines } from '../../../../bench/src/check-engines.js';
import { startFalStandIn, type FalStandIn } from '../test/stand-ins/fal-stand-in.js';
import { startFashnStandIn, type FashnStandIn } from '../test/stand-ins/fashn-stand-in.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { startVertexStandIn, type VertexStandIn } from '../test/stand-ins/vertex-stand-in.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../test/stand-ins/replicate-stand-in.js';
import { startCogStandIn, type CogStandIn } from '../test/stand-ins/cog-stand-in.js';

let gemini: GeminiStandIn;
let fashn: FashnStandIn;
let fal: FalStandIn;
let vertex: VertexStandIn;
let replicate: ReplicateStandIn;
let cog: CogStandIn;

beforeAll(async () => {
  [gemini, fashn, fal] = await Promise.all([
    startGeminiStandIn({ apiKey: 'g-check-key' }),
    startFashnStandIn({ apiKey: 'f-check-key' }),
    startFalStandIn({ key: 'fal-check:key' }),
  ]);
  [vertex, replicate, cog] = await Promise.all([
    startVertexStandIn(),
    startReplicateStandIn({ token: 'r8_check-token-000' }),
    startCogStandIn(),
  ]);
});
afterAll(async () => {
  await Promise.all([gemini?.close(), fashn?.close(), fal?.close(), vertex?.close(), replicate?.close(), cog?.close()]);
});

describe('check:engines', () => {
  it('is skipped with a clear line when no key is set', async () => {
    const lines: string[] = [];
    expect(await checkEngines({}, (l) => lines.push(l))).toBe('skipped');
    expect(lines).toEqual([
      'check:engines skipped: no keys (set GEMINI_API_KEY, FASHN_API_KEY, FAL_KEY, VERTEX_PROJECT, REPLICATE_API_TOKEN or COG_URL to check those engines)',
    ]);
  });

  it('makes one try-on per configured engine with the fixture photos and prints time, model and result size', async () => {
    const lines: string[] = [];
    const env = {
      GEMINI_API_KEY: 'g-check-key',
      GEMINI_BASE_URL: gemini.url,
      FASHN_API_KEY: 'f-check-key',
      FASHN_BASE_URL: fashn.url,
      FAL_KEY: 'fal-check:key',
      FAL_BASE_URL: fal.url,
      VERTEX_PROJECT: vertex.project,
      VERTEX_BASE_URL: vertex.url,
      VERTEX_CREDENTIALS: JSON.stringify(vertex.key),
      REPLICATE_API_TOKEN: 'r8_check-token-000',
      REPLICATE_BASE_URL: replicate.url,
      // Replicate's delivery CDN stand-in is on another port of 127.0.0.1, trusted as a mirror would be.
      UPSTREAM_OUTPUT_ORIGINS: new URL(replicate.cdnUrl).origin,
      COG_URL: cog.url,
    };
    const results = await checkEngines(env, (l) => lines.push(l));
    expect(results).not.toBe('skipped');
    if (results === 'skipped') return;
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      ['nano-banana', true],
      ['fashn', true],
      ['fal', true],
      ['vertex-tryon', true],
      ['replicate', true],
      ['cog', true],
    ]);
    expect(results[0]!.line).toMatch(
      /^ok +nano-banana +\d+\.\d s {2}model gemini-3\.1-flash-image {2}result \d+×\d+ image\/\w+ \d+ KB/,
    );
    expect(results[1]!.line).toContain('model tryon-v1.6 (mode balanced)');
    expect(results[1]!.line).toContain('creditsUsed 1');
    expect([gemini.calls().length, fashn.runCalls().length, fal.submitCalls().length]).toEqual([1, 1, 1]);
    expect([vertex.predictCalls().length, replicate.createCalls().length, cog.predictionCalls().length]).toEqual([
      1, 1, 1,
    ]);
    for (const key of Object.values(env))
      if (!key.startsWith('http') && !key.startsWith('{')) expect(lines.join('\n')).not.toContain(key);
    expect(lines.join('\n')).not.toContain(vertex.key.private_key.split('\n')[1]!);
  });

  it('reports what the server reports at start: a retired Gemini model and a low FASHN balance', async () => {
    const lines: string[] = [];
    fashn.credits = 3;
    try {
      const results = await checkEngines(
        {
          GEMINI_API_KEY: 'g-check-key',
          GEMINI_BASE_URL: gemini.url,
          GEMINI_MODEL: 'gemini-2.5-flash-image',
          FASHN_API_KEY: 'f-check-key',
          FASHN_BASE_URL: fashn.url,
        },
        (l) => lines.push(l),
      );
      if (results === 'skipped') throw new Error('expected checks');
      // the retired model's try-on ran on the listed replacement
      expect(results.map((r) => [r.id, r.ok])).toEqual([
        ['nano-banana', true],
        ['fashn', true],
      ]);
      const out = lines.join('\n');
      expect(out).toContain(
        'nano-banana: health degraded: the Gemini model "gemini-2.5-flash-image" is not in the Gemini API model list (retired or unknown): set GEMINI_MODEL to "gemini-3.1-flash-image"',
      );
      expect(out).toContain(
        'fashn: health degraded: the FASHN account has 3 credits left (below FASHN_LOW_CREDITS=50)',
      );
      expect(results[1]!.line).toContain('creditsLeft 3');
    } finally {
      fashn.reset();
    }
  });
});
