import { TRYONS_PER_OUTFIT, type User } from '@aidressup/contract';

/** Try-ons the user can still pay for: free trials left plus credits. */
export function tryOnsLeft(user: Pick<User, 'free_trials_used' | 'free_trials_limit' | 'credits'>): number {
  return Math.max(0, user.free_trials_limit - user.free_trials_used) + Math.max(0, user.credits);
}

/** True when the user is known to have too little left for a whole outfit (a top and a bottom). */
export function tooFewForOutfit(
  user: Pick<User, 'free_trials_used' | 'free_trials_limit' | 'credits'> | null,
): boolean {
  return user !== null && tryOnsLeft(user) < TRYONS_PER_OUTFIT;
}
