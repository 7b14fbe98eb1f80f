import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import {
  FASHN_MAX_DEADLINE_MS,
  engineDeadlineMs,
  engineEstimateOverride,
  longestEngineDeadlineMs,
} from './deadlines.js';

describe('engine deadlines', () => {
  it('every engine gets ENGINE_DEADLINE_MS; FASHN tryon-max gets 150 s, for it only', () => {
    const v16 = loadConfig({ FASHN_API_KEY: 'f', FAL_KEY: 'k', ENGINE_DEADLINE_MS: '100000' });
    expect(['local', 'fashn', 'fal'].map((id) => engineDeadlineMs(v16, id))).toEqual([100_000, 100_000, 100_000]);
    expect(longestEngineDeadlineMs(v16)).toBe(100_000);
    expect(engineEstimateOverride(v16, 'fashn')).toBeUndefined();

    const max = loadConfig({
      FASHN_API_KEY: 'f',
      FASHN_MODEL: 'tryon-max',
      FAL_KEY: 'k',
      ENGINE_DEADLINE_MS: '100000',
    });
    expect(['local', 'fashn', 'fal'].map((id) => engineDeadlineMs(max, id))).toEqual([
      100_000,
      FASHN_MAX_DEADLINE_MS,
      100_000,
    ]);
    expect(longestEngineDeadlineMs(max)).toBe(150_000);
    expect(engineEstimateOverride(max, 'fashn')).toEqual({ min: 50, max: 120 });
    expect(engineEstimateOverride(max, 'fal')).toBeUndefined();
  });
});
