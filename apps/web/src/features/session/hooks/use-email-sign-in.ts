import { useCallback, useRef, useState } from 'react';
import {
  EmailSchema,
  MESSAGES,
  SIGN_IN_CODE_LENGTH,
  type EmailVerifyRequest,
  type EmailVerifyResponse,
  type User,
} from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { startEmailSignIn } from '../api/start-email-sign-in';
import { somethingMerged, verifyEmailSignIn } from '../api/verify-email-sign-in';
import { otherBrowserEmail } from '../utils/other-browser';

/** `confirm`: the code was asked for in another browser; signing in here waits for a press. */
type EmailSignInStep = 'email' | 'code' | 'confirm' | 'done';

export interface EmailSignInState {
  step: EmailSignInStep;
  /** The address the code was (or will be) sent to, as typed. */
  email: string;
  busy: boolean;
  /** The server's message (or ours) for the last failed action, in English; shown with role=alert, translated. */
  error: string | null;
  /** The server's error code for `error`, when it gave one (lets the page translate a message it does not know). */
  errorCode: string | null;
  /** A code was sent again. */
  resent: boolean;
  /** After verifying: this device's results and credits joined an existing account. */
  merged: boolean;
  user: User | null;
  /** On the `confirm` step: the account's address as the server masked it. */
  maskedEmail: string | null;
  /** On the `confirm` step: the code it would sign in with. */
  pendingCode: string | null;
}

export interface EmailSignInDeps {
  start: (email: string) => Promise<void>;
  verify: (request: EmailVerifyRequest) => Promise<EmailVerifyResponse>;
  /** Called once the server has moved the session to the account. */
  onSignedIn: (user: User, merged: boolean) => void;
}

const CODE_PATTERN = new RegExp(`^\\d{${SIGN_IN_CODE_LENGTH}}$`);

/** Keeps the digits of a typed or pasted code (e.g. "123 456"), at most the code's length. */
export function normaliseCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, SIGN_IN_CODE_LENGTH);
}

const initial = (email = ''): EmailSignInState => ({
  step: 'email',
  email,
  busy: false,
  error: null,
  errorCode: null,
  resent: false,
  merged: false,
  user: null,
  maskedEmail: null,
  pendingCode: null,
});

function errorOf(e: unknown, fallback: string): Pick<EmailSignInState, 'error' | 'errorCode'> {
  return e instanceof ApiError ? { error: e.message, errorCode: e.code ?? null } : { error: fallback, errorCode: null };
}

/** The email sign-in flow: email → "we sent a code" → 6-digit code → signed in. */
export function useEmailSignIn(deps: Partial<EmailSignInDeps> & Pick<EmailSignInDeps, 'onSignedIn'>) {
  const [state, setState] = useState<EmailSignInState>(() => initial());
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const busyRef = useRef(false);

  const run = useCallback(async (action: () => Promise<Partial<EmailSignInState>>, fallback: string) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setState((s) => ({ ...s, busy: true, error: null, errorCode: null, resent: false }));
    try {
      const change = await action();
      setState((s) => ({ ...s, ...change, busy: false }));
    } catch (e) {
      if (!(e instanceof ApiError)) console.warn('Email sign-in failed', e);
      setState((s) => ({ ...s, busy: false, ...errorOf(e, fallback) }));
    } finally {
      busyRef.current = false;
    }
  }, []);

  const submitEmail = useCallback(
    (raw: string) => {
      setState((s) => ({ ...s, email: raw }));
      const parsed = EmailSchema.safeParse(raw);
      if (!parsed.success) {
        setState((s) => ({ ...s, error: MESSAGES.invalidEmail, errorCode: null }));
        return Promise.resolve();
      }
      return run(async () => {
        await (depsRef.current.start ?? startEmailSignIn)(parsed.data);
        return { step: 'code', email: parsed.data };
      }, MESSAGES.mailNotSent);
    },
    [run],
  );

  const submitCode = useCallback(
    (raw: string) => {
      const code = normaliseCode(raw);
      if (!CODE_PATTERN.test(code)) {
        setState((s) => ({ ...s, error: MESSAGES.invalidCode, errorCode: null, resent: false }));
        return Promise.resolve();
      }
      return run(async () => {
        const email = state.email;
        let res: EmailVerifyResponse;
        try {
          res = await (depsRef.current.verify ?? verifyEmailSignIn)({ email, code });
        } catch (e) {
          // Another browser asked for this code: say whose account it is and wait for a press.
          const masked = otherBrowserEmail(e);
          if (masked) return { step: 'confirm', maskedEmail: masked, pendingCode: code };
          throw e;
        }
        const merged = somethingMerged(res);
        depsRef.current.onSignedIn(res.user, merged);
        return { step: 'done', merged, user: res.user };
      }, MESSAGES.authFailed);
    },
    [run, state.email],
  );

  /** Signs in here with a code another browser asked for (nothing made here moves into the account). */
  const confirmHere = useCallback(
    () =>
      run(async () => {
        const code = state.pendingCode ?? '';
        const res = await (depsRef.current.verify ?? verifyEmailSignIn)({ email: state.email, code, confirm: true });
        depsRef.current.onSignedIn(res.user, false);
        return { step: 'done', merged: false, user: res.user, pendingCode: null };
      }, MESSAGES.authFailed),
    [run, state.email, state.pendingCode],
  );

  const resend = useCallback(
    () =>
      run(async () => {
        await (depsRef.current.start ?? startEmailSignIn)(state.email);
        return { step: 'code', resent: true, pendingCode: null };
      }, MESSAGES.mailNotSent),
    [run, state.email],
  );

  const changeEmail = useCallback(() => setState((s) => ({ ...initial(s.email) })), []);
  const reset = useCallback((email?: string) => setState(initial(email)), []);

  return { state, submitEmail, submitCode, confirmHere, resend, changeEmail, reset };
}
