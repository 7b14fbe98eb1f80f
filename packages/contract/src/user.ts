import type { User } from './api.js';

/** Derived flags. */
export function hasFreeTrial(user: Pick<User, 'free_trials_used' | 'free_trials_limit'>): boolean {
  return user.free_trials_used < user.free_trials_limit;
}

export function hasCredits(user: Pick<User, 'credits'>): boolean {
  return user.credits > 0;
}
