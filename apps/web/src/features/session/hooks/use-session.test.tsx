import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MESSAGES, type User } from '@aidressup/contract';
import { ApiError, loadResponseSchemas } from '../../../lib/api-client';
import { STORAGE_KEYS } from '../../../lib/storage';
import { SessionProvider, useSession, type SessionDeps, type SessionState } from './use-session';
import { testUser } from '../../../test/user';

const user = (over: Partial<User> = {}): User => testUser({ id: 'user-cached-0001', free_trials_used: 1, ...over });

let session: SessionState;
function Probe() {
  session = useSession();
  return (
    <p data-testid="probe">
      {session.user ? `${session.user.id}:${session.user.credits}` : 'none'}|{session.loading ? 'loading' : 'ready'}|
      {session.error ?? ''}
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

// The app loads the response schemas before its first render (boot.tsx): the cached user is checked with them.
beforeAll(async () => {
  await loadResponseSchemas();
});
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('session start', () => {
  it('shows the cached user at once, refreshes it, then replaces it with the signed-in user and caches that', async () => {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user()));
    const signIn = deferred<{ success: true; user: User; isNew: boolean }>();
    const deps: SessionDeps = {
      getDeviceId: vi.fn(async () => 'device-abcdef12'),
      signIn: vi.fn(() => signIn.promise),
      getUser: vi.fn(async () => user({ credits: 3 })),
      logout: vi.fn(async () => {}),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toMatch(/^user-cached-0001:0\|loading/);
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/^user-cached-0001:3\|loading/));
    expect(deps.getUser).toHaveBeenCalledWith('user-cached-0001');

    // The sign-in sends this browser's device info (its code is loaded when the session starts).
    await waitFor(() =>
      expect(deps.signIn).toHaveBeenCalledWith('device-abcdef12', expect.objectContaining({ country: null })),
    );
    await act(async () => signIn.resolve({ success: true, user: user({ credits: 5 }), isNew: false }));
    expect(screen.getByTestId('probe').textContent).toBe('user-cached-0001:5|ready|');
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
      logout: async () => {},
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() =>
      expect(screen.getByTestId('probe').textContent).toBe(
        'none|ready|Too many requests. Please wait a moment and try again.',
      ),
    );
    cleanup();

    render(
      <SessionProvider deps={{ ...deps, signIn: async () => Promise.reject(new TypeError('Failed to fetch')) }}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe(`none|ready|${MESSAGES.authFailed}`));
  });

  it('logout ends the session on the server, clears the user and its cache, then starts a fresh anonymous session', async () => {
    const signIn = vi
      .fn<SessionDeps['signIn']>()
      .mockResolvedValueOnce({
        success: true,
        user: user({ id: 'user-email-0001', email: 'a@example.com', credits: 9 }),
        isNew: false,
      })
      .mockResolvedValueOnce({
        success: true,
        user: user({ id: 'user-fresh-0002', free_trials_used: 2, free_trials_withheld: 'device' }),
        isNew: true,
      });
    const second = deferred<void>();
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn: (...args) =>
        signIn.mock.calls.length === 1 ? second.promise.then(() => signIn(...args)) : signIn(...args),
      getUser: async () => user(),
      logout: vi.fn(async () => {}),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('user-email-0001:9|ready|'));
    expect(localStorage.getItem(STORAGE_KEYS.user)).not.toBeNull();

    let done!: Promise<void>;
    act(() => {
      done = session.logout();
    });
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('none|loading|'));
    expect(deps.logout).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();

    await act(async () => {
      second.resolve();
      await done;
    });
    expect(screen.getByTestId('probe').textContent).toBe('user-fresh-0002:0|ready|');
    expect(signIn).toHaveBeenCalledTimes(2);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user)!).id).toBe('user-fresh-0002');
  });

  it('a refused logout keeps the user and rejects with the server message', async () => {
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn: vi.fn(async () => ({ success: true as const, user: user({ email: 'a@example.com' }), isNew: false })),
      getUser: async () => user(),
      logout: async () => {
        throw new ApiError('Too many requests.', 429, 'RATE_LIMITED', {});
      },
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/ready/));
    await act(async () => {
      await expect(session.logout()).rejects.toThrow('Too many requests.');
    });
    expect(screen.getByTestId('probe').textContent).toBe('user-cached-0001:0|ready|');
    expect(deps.signIn).toHaveBeenCalledTimes(1);
  });

  it('signedIn replaces the user, and a late anonymous answer does not bring the old one back', async () => {
    const anon = deferred<{ success: true; user: User; isNew: boolean }>();
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn: () => anon.promise,
      getUser: async () => user(),
      logout: async () => {},
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    act(() => session.signedIn(user({ id: 'user-account-9', email: 'a@example.com', credits: 50 })));
    expect(screen.getByTestId('probe').textContent).toBe('user-account-9:50|ready|');
    await act(async () => anon.resolve({ success: true, user: user({ id: 'user-anon-1' }), isNew: true }));
    expect(screen.getByTestId('probe').textContent).toBe('user-account-9:50|ready|');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user)!).email).toBe('a@example.com');
  });

  it('startFreshSession forgets the user without calling logout and signs in anew', async () => {
    const signIn = vi
      .fn<SessionDeps['signIn']>()
      .mockResolvedValueOnce({ success: true, user: user({ id: 'user-old-1' }), isNew: false })
      .mockResolvedValueOnce({ success: true, user: user({ id: 'user-new-2' }), isNew: true });
    const deps: SessionDeps = {
      getDeviceId: async () => 'device-abcdef12',
      signIn,
      getUser: async () => user(),
      logout: vi.fn(async () => {}),
    };
    render(
      <SessionProvider deps={deps}>
        <Probe />
      </SessionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('user-old-1:0|ready|'));
    await act(async () => session.startFreshSession());
    expect(screen.getByTestId('probe').textContent).toBe('user-new-2:0|ready|');
    expect(deps.logout).not.toHaveBeenCalled();
    expect(session.isNew).toBe(true);
  });
});
