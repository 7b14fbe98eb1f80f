import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { MESSAGES, type DeviceInfo, type User } from '@aidressup/contract';
import { ApiError, loadedResponseSchemas } from '../../../lib/api-client';
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';
import { getUser } from '../api/get-user';
import { logout as logoutRequest } from '../api/logout';
import { forgetPhotos } from '../../../lib/photo-store';
import type { signInAnonymous } from '../api/sign-in-anonymous';
import { whenFingerprintDue } from '../utils/fingerprint-due';

export interface SessionState {
  user: User | null;
  /** True until the anonymous sign-in has finished, successfully or not. */
  loading: boolean;
  /** Why the session could not start, in English (the server's words); translate it where it is shown. */
  error: string | null;
  /** The server's error code for `error`, when it gave one. */
  errorCode: string | null;
  isNew: boolean;
  /** Replaces the user and caches it. */
  setUser: (user: User) => void;
  /** Applies a local change to the user and caches it. */
  updateUser: (change: (user: User) => User) => void;
  /** Re-reads the user from the server; failures are only logged. Resolves to the fresh user. */
  refreshUser: () => Promise<User | null>;
  /**
   * The session now belongs to `user` (after an email sign-in the server moved the session cookie
   * to the account): replaces and caches it; late answers of the earlier session are ignored.
   */
  signedIn: (user: User) => void;
  /**
   * Signs out on the server, then clears the user and its cache and starts a fresh
   * anonymous session. Rejects with the server's error when it refuses; the user then stays.
   */
  logout: () => Promise<void>;
  /** Clears the user and its cache and starts a fresh anonymous session (after "Delete my data"). */
  startFreshSession: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/**
 * The cached user, checked against the contract's schema; none while the schemas have not loaded
 * (boot.tsx loads them before the first render, so the cached user is shown at once).
 */
function readCachedUser(): User | null {
  const raw = readStorage(STORAGE_KEYS.user);
  const schemas = loadedResponseSchemas();
  if (!raw || !schemas) return null;
  try {
    const parsed = schemas.UserSchema.safeParse(JSON.parse(raw));
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
  /** The device info sent at sign-in; this browser's (lib/device-info.ts) when left out. */
  getDeviceInfo?: () => Promise<DeviceInfo>;
  signIn: typeof signInAnonymous;
  getUser: typeof getUser;
  logout: typeof logoutRequest;
}

/**
 * The device id, the device info and the sign-in call: a chunk of their own, loaded once
 * fingerprinting is due (the first page's scripts do not carry them).
 */
const loadSessionStart = () => import('../utils/session-start');

const thisDeviceInfo = async () => (await loadSessionStart()).collectDeviceInfo();

const defaultDeps: SessionDeps = {
  getDeviceId: async () => {
    if (sessionMayWait(window.location.pathname, readCachedUser() !== null)) await whenFingerprintDue();
    return (await loadSessionStart()).getDeviceId();
  },
  getDeviceInfo: thisDeviceInfo,
  signIn: async (deviceId, deviceInfo) => (await loadSessionStart()).signInAnonymous(deviceId, deviceInfo),
  getUser,
  logout: logoutRequest,
};

/**
 * Whether the session's start may wait for the shopper's first interaction or an idle moment: only
 * on a first visit's home page, whose first paint must not compete with fingerprinting. Every other
 * page needs the account at once (the account page, My Gallery, the console, the sign-in link's
 * page), and so does a shopper who comes back (a user is cached).
 */
function sessionMayWait(pathname: string, returning: boolean): boolean {
  return pathname === '/' && !returning;
}

/**
 * Session start: the device id, then anonymous sign-in. On a first visit's home page the device id
 * waits for the shopper's first interaction or for the page to settle (utils/fingerprint-due.ts),
 * and so does the sign-in; anywhere else it starts at once (`sessionMayWait`).
 * Answers that arrive while the page is in use are applied as transitions: React renders them in
 * slices instead of one long task.
 */
export function SessionProvider({ children, deps = defaultDeps }: { children: ReactNode; deps?: SessionDeps }) {
  const [user, setUserState] = useState<User | null>(() => readCachedUser());
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);
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

  /**
   * Each session (the first, one after a sign-in, sign-out or deletion) has a generation; answers
   * that arrive for an earlier one are dropped, so a slow call never brings back a user that is gone.
   */
  const generation = useRef(0);

  const refreshUser = useCallback(async () => {
    const current = userRef.current;
    if (!current) return null;
    const gen = generation.current;
    try {
      const fresh = await depsRef.current.getUser(current.id);
      if (gen !== generation.current) return userRef.current;
      setUser(fresh);
      return fresh;
    } catch (e) {
      console.warn('Could not refresh the user', e);
      return null;
    }
  }, [setUser]);

  /** Device id, then anonymous sign-in; the loading flag ends in both cases. */
  const startAnonymous = useCallback(
    async (gen: number) => {
      const d = depsRef.current;
      try {
        const deviceId = await d.getDeviceId();
        const res = await d.signIn(deviceId, await (d.getDeviceInfo ?? thisDeviceInfo)());
        if (gen !== generation.current) return;
        startTransition(() => {
          setUser(res.user);
          setIsNew(res.isNew);
          setError(null);
          setErrorCode(null);
          setLoading(false);
        });
      } catch (e) {
        if (gen !== generation.current) return;
        const message = e instanceof ApiError ? e.message : MESSAGES.authFailed;
        console.warn(MESSAGES.authFailed, e);
        startTransition(() => {
          setError(message);
          setErrorCode(e instanceof ApiError ? (e.code ?? null) : null);
          setLoading(false);
        });
      }
    },
    [setUser],
  );

  /** Forgets the user and its cache, then starts a new anonymous session. */
  const restart = useCallback(async () => {
    const gen = ++generation.current;
    // The photos kept for Try Again belong to the session that ends.
    void forgetPhotos();
    userRef.current = null;
    setUserState(null);
    cacheUser(null);
    setIsNew(false);
    setError(null);
    setErrorCode(null);
    setLoading(true);
    await startAnonymous(gen);
  }, [startAnonymous]);

  const logout = useCallback(async () => {
    await depsRef.current.logout();
    await restart();
  }, [restart]);

  const signedIn = useCallback(
    (next: User) => {
      generation.current += 1;
      setUser(next);
      setIsNew(false);
      setError(null);
      setErrorCode(null);
      setLoading(false);
    },
    [setUser],
  );

  useEffect(() => {
    const gen = ++generation.current;
    const d = depsRef.current;
    // 1. The cached user is already shown; refresh it from the server.
    const cached = userRef.current;
    if (cached) {
      d.getUser(cached.id)
        .then((fresh) => {
          if (gen === generation.current) startTransition(() => setUser(fresh));
        })
        .catch((e: unknown) => console.warn('Could not refresh the cached user', e));
    }
    // 2. Device id, then anonymous sign-in.
    void startAnonymous(gen);
    return () => {
      generation.current += 1;
    };
  }, [setUser, startAnonymous]);

  const value = useMemo<SessionState>(
    () => ({
      user,
      loading,
      error,
      errorCode,
      isNew,
      setUser,
      updateUser,
      refreshUser,
      signedIn,
      logout,
      startFreshSession: restart,
    }),
    [user, loading, error, errorCode, isNew, setUser, updateUser, refreshUser, signedIn, logout, restart],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}
