import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { MESSAGES } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { SignInDialog } from './sign-in-dialog';
import { testUser } from '../../../test/user';

const account = testUser({
  id: 'user-account-1',
  credits: 50,
  free_trials_used: 2,
  segment: 'subscriber',
  email: 'ana@example.com',
});

afterEach(cleanup);

describe('sign-in dialog', () => {
  it('walks email → code → signed in, with the fields labelled for one-time codes', async () => {
    const start = vi.fn(async () => {});
    const verify = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(MESSAGES.invalidCode, 400, 'INVALID_CODE', {}))
      .mockResolvedValueOnce({ success: true, user: account, merged: true, moved: { credits: 0, results: 1 } });
    const onSignedIn = vi.fn();
    render(
      <MemoryRouter>
        <SignInDialog open onClose={() => {}} onSignedIn={onSignedIn} deps={{ start, verify }} />
      </MemoryRouter>,
    );
    const email = screen.getByLabelText('Email address');
    expect(document.activeElement).toBe(email);
    expect(email.getAttribute('autocomplete')).toBe('email');
    fireEvent.change(email, { target: { value: 'ana@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a code' })));
    expect(start).toHaveBeenCalledWith('ana@example.com');

    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeTruthy();
    const code = screen.getByLabelText('6-digit code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(code);
    fireEvent.change(code, { target: { value: '12a34 5' } });
    expect((code as HTMLInputElement).value).toBe('12345');
    fireEvent.change(code, { target: { value: '123456' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.invalidCode);
    expect(code.getAttribute('aria-invalid')).toBe('true');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(verify).toHaveBeenLastCalledWith({ email: 'ana@example.com', code: '123456' });
    expect(onSignedIn).toHaveBeenCalledWith(account, true);
    expect(screen.getByRole('heading', { name: "You're signed in" })).toBeTruthy();
    expect(screen.getByTestId('sign-in-merged').textContent).toMatch(/credits and results were added to your account/);
  });

  it('shows a malformed email inline and starts with a given address', async () => {
    const start = vi.fn(async () => {});
    render(
      <MemoryRouter>
        <SignInDialog open onClose={() => {}} onSignedIn={() => {}} initialEmail="typo@" deps={{ start }} />
      </MemoryRouter>,
    );
    expect((screen.getByLabelText('Email address') as HTMLInputElement).value).toBe('typo@');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a code' })));
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.invalidEmail);
    expect(start).not.toHaveBeenCalled();
  });

  it('speaks the page language: labels, the close button and the code step', async () => {
    await act(() => activateLocale('es'));
    try {
      const start = vi.fn(async () => {});
      render(
        <MemoryRouter>
          <SignInDialog open onClose={() => {}} onSignedIn={() => {}} deps={{ start }} />
        </MemoryRouter>,
      );
      expect(screen.getByRole('heading', { name: 'Inicia sesión con tu correo' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Cerrar' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Política de privacidad' }).getAttribute('href')).toBe('/privacy-policy');
      const email = screen.getByLabelText('Correo electrónico');
      expect(email.getAttribute('placeholder')).toBe('tu@ejemplo.com');
      fireEvent.change(email, { target: { value: 'ana@example.com' } });
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Envíame un código' })));
      expect(screen.getByRole('heading', { name: 'Revisa tu correo' })).toBeTruthy();
      expect(screen.getByTestId('sign-in-dialog').textContent).toContain(
        'Hemos enviado un código de 6 dígitos a ana@example.com. Escríbelo abajo o abre el enlace de ese correo. Es válido durante 10 minutos.',
      );
      expect(screen.getByLabelText('Código de 6 dígitos')).toBeTruthy();
    } finally {
      await act(() => activateLocale('en'));
    }
  });
});
