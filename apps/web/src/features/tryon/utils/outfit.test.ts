import { describe, expect, it } from 'vitest';
import { tooFewForOutfit, tryOnsLeft } from './outfit';

describe('whole outfit: try-ons left', () => {
  it('counts free trials left and credits', () => {
    expect(tryOnsLeft({ free_trials_used: 1, free_trials_limit: 2, credits: 3 })).toBe(4);
    expect(tryOnsLeft({ free_trials_used: 2, free_trials_limit: 2, credits: 0 })).toBe(0);
  });
  it('an outfit needs two: one trial or one credit is not enough, a trial and a credit is', () => {
    expect(tooFewForOutfit({ free_trials_used: 1, free_trials_limit: 2, credits: 0 })).toBe(true);
    expect(tooFewForOutfit({ free_trials_used: 2, free_trials_limit: 2, credits: 1 })).toBe(true);
    expect(tooFewForOutfit({ free_trials_used: 1, free_trials_limit: 2, credits: 1 })).toBe(false);
    expect(tooFewForOutfit({ free_trials_used: 0, free_trials_limit: 2, credits: 0 })).toBe(false);
    expect(tooFewForOutfit(null)).toBe(false);
  });
});
