import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { normaliseCode, useEmailSignIn, type EmailSignInDeps } from './use-email-sign-in';
import { testUser } from '../../../test/user';

const account = testUser({
  id: 'user-account-1',
  credits: 50,
  free_trials_used: 2,
  segment: 'subscriber',
  email: 'ana@example.com',
});

function setup(over: Partial<EmailSignInDeps> = {}) {
  const deps = {
    start: vi.fn(async () => {}),
    verify: vi.fn(async () => ({
      success: true as const,
      user: account,
      merged: true,
      moved: { credits: 3, results: 0 },
    })),
    onSignedIn: vi.fn(),
    ...over,
  };
  const hook = renderHook(() => useEmailSignIn(deps));
  return { deps, hook };
}

afterEach(cleanup);

describe('email sign-in flow', () => {
  it('email → code → signed in, normalising the address and the code', async () => {
    const { deps, hook } = setup();
    expect(hook.result.current.state.step).toBe('email');
    await act(() => hook.result.current.submitEmail('  Ana@Example.com '));
    expect(deps.start).toHaveBeenCalledWith('ana@example.com');
    expect(hook.result.current.state).toMatchObject({
      step: 'code',
      email: 'ana@example.com',
      error: null,
      busy: false,
    });

    await act(() => hook.result.current.submitCode('123 456'));
    expect(deps.verify).toHaveBeenCalledWith({ email: 'ana@example.com', code: '123456' });
    expect(deps.onSignedIn).toHaveBeenCalledWith(account, true);
    expect(hook.result.current.state).toMatchObject({ step: 'done', merged: true, user: account });
  });

  it('claims a merge only when credits or results really joined the account', async () => {
    const { deps, hook } = setup({
      verify: vi.fn(async () => ({
        success: true as const,
        user: account,
        merged: true,
        moved: { credits: 0, results: 0 },
      })),
    });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    await act(() => hook.result.current.submitCode('123456'));
    expect(deps.onSignedIn).toHaveBeenCalledWith(account, false);
    expect(hook.result.current.state).toMatchObject({ step: 'done', merged: false });
  });

  it('refuses a malformed email or code without calling the server', async () => {
    const { deps, hook } = setup();
    await act(() => hook.result.current.submitEmail('not-an-email'));
    expect(hook.result.current.state).toMatchObject({
      step: 'email',
      error: MESSAGES.invalidEmail,
      email: 'not-an-email',
    });
    expect(deps.start).not.toHaveBeenCalled();

    await act(() => hook.result.current.submitEmail('ana@example.com'));
    await act(() => hook.result.current.submitCode('12345'));
    expect(hook.result.current.state).toMatchObject({ step: 'code', error: MESSAGES.invalidCode });
    expect(deps.verify).not.toHaveBeenCalled();
  });

  it('shows the server message of a refused code and stays on the code step; resend clears it and says so', async () => {
    const verify = vi.fn(async () => {
      throw new ApiError(MESSAGES.codeExpired, 410, 'CODE_EXPIRED', {});
    });
    const { deps, hook } = setup({ verify });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    await act(() => hook.result.current.submitCode('000000'));
    expect(hook.result.current.state).toMatchObject({ step: 'code', error: MESSAGES.codeExpired, busy: false });
    expect(deps.onSignedIn).not.toHaveBeenCalled();

    await act(() => hook.result.current.resend());
    expect(deps.start).toHaveBeenCalledTimes(2);
    expect(hook.result.current.state).toMatchObject({ step: 'code', error: null, resent: true });
  });

  it('asks before signing in with a code another browser asked for, and then merges nothing', async () => {
    const verify = vi.fn<EmailSignInDeps['verify']>(async (request) => {
      if (!request.confirm)
        throw new ApiError(MESSAGES.confirmOtherBrowser, 409, 'CONFIRM_OTHER_BROWSER', {
          success: false,
          code: 'CONFIRM_OTHER_BROWSER',
          error: MESSAGES.confirmOtherBrowser,
          email: 'a•••@example.com',
        });
      return { success: true as const, user: account, merged: false, moved: { credits: 0, results: 0 } };
    });
    const { deps, hook } = setup({ verify });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    await act(() => hook.result.current.submitCode('123456'));
    expect(hook.result.current.state).toMatchObject({
      step: 'confirm',
      maskedEmail: 'a•••@example.com',
      error: null,
    });
    expect(deps.onSignedIn).not.toHaveBeenCalled();

    await act(() => hook.result.current.confirmHere());
    expect(verify).toHaveBeenLastCalledWith({ email: 'ana@example.com', code: '123456', confirm: true });
    expect(deps.onSignedIn).toHaveBeenCalledWith(account, false);
    expect(hook.result.current.state).toMatchObject({ step: 'done', merged: false });
  });

  it('from the confirm step, asking for a code in this browser goes back to the code step', async () => {
    const verify = vi.fn<EmailSignInDeps['verify']>(async () => {
      throw new ApiError(MESSAGES.confirmOtherBrowser, 409, 'CONFIRM_OTHER_BROWSER', {
        success: false,
        code: 'CONFIRM_OTHER_BROWSER',
        error: MESSAGES.confirmOtherBrowser,
        email: 'a•••@example.com',
      });
    });
    const { deps, hook } = setup({ verify });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    await act(() => hook.result.current.submitCode('123456'));
    await act(() => hook.result.current.resend());
    expect(deps.start).toHaveBeenCalledTimes(2);
    expect(hook.result.current.state).toMatchObject({ step: 'code', resent: true, pendingCode: null });
  });

  it('shows a rate limit on start, and change email goes back with the address kept', async () => {
    const start = vi.fn<EmailSignInDeps['start']>(async () => {
      throw new ApiError('Too many requests. Please wait a moment and try again.', 429, 'RATE_LIMITED', {});
    });
    const { hook } = setup({ start });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    expect(hook.result.current.state).toMatchObject({
      step: 'email',
      error: 'Too many requests. Please wait a moment and try again.',
    });

    start.mockResolvedValueOnce(undefined);
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    expect(hook.result.current.state.step).toBe('code');
    act(() => hook.result.current.changeEmail());
    expect(hook.result.current.state).toMatchObject({ step: 'email', email: 'ana@example.com', error: null });
  });

  it('uses our message when the network fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { hook } = setup({ start: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await act(() => hook.result.current.submitEmail('ana@example.com'));
    expect(hook.result.current.state.error).toBe(MESSAGES.mailNotSent);
  });

  it('normalises pasted codes', () => {
    expect(normaliseCode(' 12-34 56 ')).toBe('123456');
    expect(normaliseCode('1234567')).toBe('123456');
    expect(normaliseCode('abc')).toBe('');
  });
});
