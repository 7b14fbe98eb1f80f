import type { User } from './api.js';

/** Derived flags. */
export function hasFreeTrial(user: Pick<User, 'free_trials_used' | 'free_trials_limit'>): boolean {
  return user.free_trials_used < user.free_trials_limit;
}

export function hasCredits(user: Pick<User, 'credits'>): boolean {
  return user.credits > 0;
}

/**
 * What `tryOns` try-ons would use of a user's balance, as the server spends it (free trials
 * first, then credits), and whether the balance covers them all: the page says the cost of a
 * press before it, and opens the paywall instead of a press the balance cannot cover.
 */
export function pressCost(
  user: Pick<User, 'free_trials_used' | 'free_trials_limit' | 'credits'>,
  tryOns: number,
): { trials: number; credits: number; covered: boolean } {
  const trials = Math.min(tryOns, Math.max(0, user.free_trials_limit - user.free_trials_used));
  const credits = tryOns - trials;
  return { trials, credits, covered: credits <= user.credits };
}
