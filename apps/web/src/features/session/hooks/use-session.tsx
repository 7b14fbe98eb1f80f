import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { MESSAGES, UserSchema, type User } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { collectDeviceInfo } from '../../../lib/device-info';
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';
import { getUser } from '../api/get-user';
import { signInAnonymous } from '../api/sign-in-anonymous';
import { getDeviceId } from '../utils/device-id';

export interface SessionState {
  user: User | null;
  /** True until the anonymous sign-in has finished, successfully or not. */
  loading: boolean;
  error: string | null;
  isNew: boolean;
  /** Replaces the user and caches it. */
  setUser: (user: User) => void;
  /** Applies a local change to the user (spec §4 counters) and caches it. */
  updateUser: (change: (user: User) => User) => void;
  /** Re-reads the user from the server; failures are only logged. Resolves to the fresh user. */
  refreshUser: () => Promise<User | null>;
  logout: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

export function readCachedUser(): User | null {
  const raw = readStorage(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const parsed = UserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function cacheUser(user: User | null) {
  if (user) writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
  else removeStorage(STORAGE_KEYS.user);
}

export interface SessionDeps {
  getDeviceId: () => Promise<string>;
  signIn: typeof signInAnonymous;
  getUser: typeof getUser;
}

const defaultDeps: SessionDeps = { getDeviceId: () => getDeviceId(), signIn: signInAnonymous, getUser };

/** Session start exactly as spec §4. */
export function SessionProvider({ children, deps = defaultDeps }: { children: ReactNode; deps?: SessionDeps }) {
  const [user, setUserState] = useState<User | null>(() => readCachedUser());
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [isNew, setIsNew] = useState(false);
  const userRef = useRef(user);
  userRef.current = user;
  const depsRef = useRef(deps);

  const setUser = useCallback((next: User) => {
    userRef.current = next;
    setUserState(next);
    cacheUser(next);
  }, []);

  const updateUser = useCallback(
    (change: (u: User) => User) => {
      const current = userRef.current;
      if (!current) return;
      setUser(change(current));
    },
    [setUser],
  );

  const refreshUser = useCallback(async () => {
    const current = userRef.current;
    if (!current) return null;
    try {
      const fresh = await depsRef.current.getUser(current.id);
      setUser(fresh);
      return fresh;
    } catch (e) {
      console.warn('Could not refresh the user', e);
      return null;
    }
  }, [setUser]);

  const logout = useCallback(() => {
    userRef.current = null;
    setUserState(null);
    cacheUser(null);
  }, []);

  useEffect(() => {
    let cancelled = false;
    const d = depsRef.current;
    // 1. The cached user is already shown; refresh it from the server.
    const cached = userRef.current;
    if (cached) {
      d.getUser(cached.id)
        .then((fresh) => {
          if (!cancelled) setUser(fresh);
        })
        .catch((e: unknown) => console.warn('Could not refresh the cached user', e));
    }
    // 2. Device id, then anonymous sign-in.
    (async () => {
      try {
        const deviceId = await d.getDeviceId();
        const res = await d.signIn(deviceId, collectDeviceInfo());
        if (cancelled) return;
        setUser(res.user);
        setIsNew(res.isNew);
        setError(null);
      } catch (e) {
        if (cancelled) return;
        const message = e instanceof ApiError ? e.message : MESSAGES.authFailed;
        setError(message);
        console.warn(MESSAGES.authFailed, e);
      } finally {
        if (!cancelled) setLoading(false);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [setUser]);

  const value = useMemo<SessionState>(
    () => ({ user, loading, error, isNew, setUser, updateUser, refreshUser, logout }),
    [user, loading, error, isNew, setUser, updateUser, refreshUser, logout],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}
