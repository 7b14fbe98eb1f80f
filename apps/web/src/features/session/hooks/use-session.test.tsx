import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MESSAGES, type User } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { STORAGE_KEYS } from '../../../lib/storage';
import { SessionProvider, useSession, type SessionDeps, type SessionState } from './use-session';

const user = (over: Partial<User> = {}): User => ({
  id: 'user-cached-0001',
  credits: 0,
  free_trials_used: 1,
  free_trials_limit: 2,
  segment: 'trial',
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

let session: SessionState;
function Probe() {
  session = useSession();
  return (
    <p data-testid="probe">
      {session.user ? `${session.user.id}:${session.user.credits}` : 'none'}|{session.loading ? 'loading' : 'ready'}|{session.error ?? ''}
    </p>
  );
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('session start (spec §4)', () => {
  it('shows the cached user at once, refreshes it, then replaces it with the signed-in user and caches that', async () => {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user()));
    const signIn = deferred<{ success: true; user: User; isNew: boolean }>();
    const deps: SessionDeps = {
      getDeviceId: vi.fn(async () => 'device-abcdef12'),
      signIn: vi.fn(() => signIn.promise),
      getUser: vi.fn(async () => user({ credits: 3 })),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toMatch(/^user-cached-0001:0\|loading/);
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/^user-cached-0001:3\|loading/));
    expect(deps.getUser).toHaveBeenCalledWith('user-cached-0001');

    await act(async () => signIn.resolve({ success: true, user: user({ credits: 5 }), isNew: false }));
    expect(screen.getByTestId('probe').textContent).toBe('user-cached-0001:5|ready|');
    expect(deps.signIn).toHaveBeenCalledWith('device-abcdef12', expect.objectContaining({ country: null }));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user)!).credits).toBe(5);
  });

  it('records the server error, or Authentication failed, and ends loading on failure', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn: async () => {
        throw new ApiError('Too many requests. Please wait a moment and try again.', 429, 'RATE_LIMITED', {});
      },
      getUser: async () => user(),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() =>
      expect(screen.getByTestId('probe').textContent).toBe('none|ready|Too many requests. Please wait a moment and try again.'),
    );
    cleanup();

    render(
      <SessionProvider deps={{ ...deps, signIn: async () => Promise.reject(new TypeError('Failed to fetch')) }}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe(`none|ready|${MESSAGES.authFailed}`));
  });

  it('logout clears the user and its cache', async () => {
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn: async () => ({ success: true, user: user(), isNew: true }),
      getUser: async () => user(),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/ready/));
    expect(localStorage.getItem(STORAGE_KEYS.user)).not.toBeNull();
    act(() => session.logout());
    expect(screen.getByTestId('probe').textContent).toMatch(/^none/);
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });
});
