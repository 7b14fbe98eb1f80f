import type { User } from '@aidressup/contract';

/** A user as the API answers it, for tests: a new anonymous shopper unless `over` says otherwise. */
export function testUser(over: Partial<User> = {}): User {
  return {
    id: 'user-0001',
    credits: 0,
    free_trials_used: 0,
    free_trials_limit: 2,
    segment: 'trial',
    created_at: '2026-01-01T00:00:00.000Z',
    email: null,
    free_trials_withheld: null,
    ...over,
  };
}
