import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { accessAfter } from './use-admin-access';

describe('the console’s access after a failed call', () => {
  it('asks for a sign-in on 401, a fresh one on REAUTH_REQUIRED, and refuses on 403', () => {
    expect(accessAfter(new ApiError('x', 401, 'UNAUTHORIZED', {}))).toBe('signin');
    expect(accessAfter(new ApiError('x', 401, 'REAUTH_REQUIRED', {}))).toBe('reauth');
    expect(accessAfter(new ApiError('x', 403, 'FORBIDDEN', {}))).toBe('forbidden');
  });

  it('leaves other failures to the screen that made the call', () => {
    expect(accessAfter(new ApiError('x', 404, 'NOT_FOUND', {}))).toBeNull();
    expect(accessAfter(new ApiError('x', 500, undefined, {}))).toBeNull();
    expect(accessAfter(new TypeError('Failed to fetch'))).toBeNull();
  });
});
