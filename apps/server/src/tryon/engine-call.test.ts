import { describe, expect, it } from 'vitest';
import type { TryOnEngine, TryOnInput } from '@aidressup/engine';
import { runEngine } from './engine-call.js';

const bytes = (n: number) => new Uint8Array([n]);

function recordingEngine(outfit: boolean) {
  const calls: TryOnInput[] = [];
  let n = 100;
  const engine: TryOnEngine = {
    id: 'rec',
    label: 'Recording',
    ...(outfit ? { outfit: true } : {}),
    async tryOn(input) {
      calls.push(input);
      return { image: bytes(n++), mimeType: 'image/png' };
    },
  };
  return { engine, calls };
}

describe('runEngine: one garment or a whole outfit', () => {
  const signal = new AbortController().signal;

  it('passes a single garment straight through', async () => {
    const { engine, calls } = recordingEngine(false);
    const out = await runEngine(engine, { person: bytes(1), garment: bytes(2), category: 'dresses', signal });
    expect(out.image).toEqual(bytes(100));
    expect(calls).toEqual([{ person: bytes(1), garment: bytes(2), category: 'dresses', signal }]);
  });

  it('an engine without outfits: the bottom first, then the top over that result, same signal', async () => {
    const { engine, calls } = recordingEngine(false);
    const out = await runEngine(engine, {
      person: bytes(1),
      garment: bytes(2),
      lowerGarment: bytes(3),
      category: 'upper_body',
      signal,
    });
    expect(calls).toEqual([
      { person: bytes(1), garment: bytes(3), category: 'lower_body', signal },
      { person: bytes(100), garment: bytes(2), category: 'upper_body', signal },
    ]);
    expect(out.image).toEqual(bytes(101));
  });

  it('an engine that dresses outfits itself gets one call with both garments', async () => {
    const { engine, calls } = recordingEngine(true);
    await runEngine(engine, {
      person: bytes(1),
      garment: bytes(2),
      lowerGarment: bytes(3),
      category: 'upper_body',
      signal,
    });
    expect(calls).toEqual([
      { person: bytes(1), garment: bytes(2), lowerGarment: bytes(3), category: 'upper_body', signal },
    ]);
  });

  it('a failing bottom stops there: the top is never tried', async () => {
    const calls: TryOnInput[] = [];
    const engine: TryOnEngine = {
      id: 'fails',
      label: 'Fails',
      async tryOn(input) {
        calls.push(input);
        throw new Error('no');
      },
    };
    await expect(
      runEngine(engine, {
        person: bytes(1),
        garment: bytes(2),
        lowerGarment: bytes(3),
        category: 'upper_body',
        signal,
      }),
    ).rejects.toThrow('no');
    expect(calls).toHaveLength(1);
  });
});
