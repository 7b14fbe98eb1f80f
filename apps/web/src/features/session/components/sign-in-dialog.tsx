import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SIGN_IN_CODE_LENGTH, SIGN_IN_CODE_TTL_MINUTES, type User } from '@aidressup/contract';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, CheckIcon, MailIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import { normaliseCode, useEmailSignIn, type EmailSignInDeps } from '../hooks/use-email-sign-in';
import { OtherBrowserNote } from './other-browser-note';

export interface SignInDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called once the server has moved the session to the account. */
  onSignedIn: (user: User, merged: boolean) => void;
  initialEmail?: string;
  /** For tests: the sign-in calls. */
  deps?: Partial<Pick<EmailSignInDeps, 'start' | 'verify'>>;
}

const inputClass =
  'mt-1.5 block w-full rounded-xl border border-ink-300 bg-white px-4 py-3 text-base text-ink-950 shadow-sm placeholder:text-ink-400 focus:border-brand-500 focus:outline-3 focus:outline-brand-500/30 aria-invalid:border-red-500';

function ErrorText({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p id={id} role="alert" className="mt-3 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  ) : null;
}

/** Sign in with email: email → "we sent a code" → 6-digit code → signed in. */
export function SignInDialog({ open, onClose, onSignedIn, initialEmail = '', deps }: SignInDialogProps) {
  const { state, submitEmail, submitCode, confirmHere, resend, changeEmail, reset } = useEmailSignIn({
    ...deps,
    onSignedIn,
  });
  const t = useT();
  const localize = useLocalizeMessage();
  const errorText = state.error ? localize(state.error, state.errorCode) : null;
  const [emailText, setEmailText] = useState(initialEmail);
  const [code, setCode] = useState('');
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const emailId = useId();
  const codeId = useId();
  const errorId = useId();
  const hintId = useId();

  useEffect(() => {
    if (!open) return;
    reset(initialEmail);
    setEmailText(initialEmail);
    setCode('');
  }, [open, initialEmail, reset]);

  // A refused address or code: back to its field, so it can be corrected at once.
  useEffect(() => {
    if (!state.error) return;
    (state.step === 'code' ? codeRef : emailRef).current?.focus();
  }, [state.error, state.step]);

  const onEmail = (e: FormEvent) => {
    e.preventDefault();
    setCode('');
    void submitEmail(emailText);
  };
  const onCode = (e: FormEvent) => {
    e.preventDefault();
    void submitCode(code);
  };

  let title: string;
  let description: ReactNode;
  let body: ReactNode;

  if (state.step === 'email') {
    title = t('account.signInDialog.emailTitle');
    description = t('account.signInDialog.emailDescription', { length: SIGN_IN_CODE_LENGTH });
    body = (
      <form className="mt-6" onSubmit={onEmail} noValidate>
        <label htmlFor={emailId} className="text-sm font-semibold text-ink-900">
          {t('account.signInDialog.emailLabel')}
        </label>
        <input
          ref={emailRef}
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          autoCapitalize="none"
          required
          placeholder={t('account.signInDialog.emailPlaceholder')}
          value={emailText}
          onChange={(e) => setEmailText(e.target.value)}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? errorId : undefined}
          className={inputClass}
          data-autofocus
        />
        <ErrorText id={errorId} message={errorText} />
        <Button type="submit" size="lg" className="mt-5 w-full" disabled={state.busy}>
          {state.busy ? <Spinner className="size-5" /> : <MailIcon className="size-5" />}
          {state.busy ? t('account.signInDialog.sending') : t('account.signInDialog.send')}
        </Button>
        <p className="mt-4 text-xs leading-5 text-ink-500">
          {rich(t('account.signInDialog.privacy'), {
            0: (text) => (
              <Link
                to="/privacy-policy"
                className="font-semibold text-brand-700 underline underline-offset-2"
                onClick={onClose}
              >
                {text}
              </Link>
            ),
          })}
        </p>
      </form>
    );
  } else if (state.step === 'code') {
    title = t('account.signInDialog.codeTitle');
    description = rich(
      t('account.signInDialog.codeDescription', {
        length: SIGN_IN_CODE_LENGTH,
        email: state.email,
        minutes: SIGN_IN_CODE_TTL_MINUTES,
      }),
      {
        0: (text) => (
          <strong className="text-ink-900 [overflow-wrap:anywhere]" dir="ltr">
            {text}
          </strong>
        ),
      },
    );
    body = (
      <form className="mt-6" onSubmit={onCode} noValidate>
        <label htmlFor={codeId} className="text-sm font-semibold text-ink-900">
          {t('account.signInDialog.codeLabel', { length: SIGN_IN_CODE_LENGTH })}
        </label>
        <input
          ref={codeRef}
          id={codeId}
          type="text"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          value={code}
          onChange={(e) => setCode(normaliseCode(e.target.value))}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? `${errorId} ${hintId}` : hintId}
          className={`${inputClass} text-center font-mono text-2xl tracking-[0.5em]`}
          placeholder="••••••"
          data-autofocus
          data-testid="sign-in-code"
        />
        <p id={hintId} className="mt-2 text-xs text-ink-500">
          {t('account.signInDialog.codeHint')}
        </p>
        <ErrorText id={errorId} message={errorText} />
        {state.resent && !state.error ? (
          <p role="status" className="mt-3 flex gap-2 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
            <CheckIcon className="mt-0.5 size-4 shrink-0" />
            {t('account.signInDialog.resent')}
          </p>
        ) : null}
        <Button type="submit" size="lg" className="mt-5 w-full" disabled={state.busy}>
          {state.busy ? <Spinner className="size-5" /> : null}
          {state.busy ? t('account.signInDialog.checking') : t('account.signInDialog.submit')}
        </Button>
        <div className="mt-3 flex flex-wrap justify-between gap-2">
          <Button variant="ghost" size="sm" onClick={() => void resend()} disabled={state.busy}>
            {t('account.signInDialog.resend')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setEmailText(state.email);
              changeEmail();
            }}
            disabled={state.busy}
          >
            {t('account.signInDialog.changeEmail')}
          </Button>
        </div>
      </form>
    );
  } else if (state.step === 'confirm') {
    title = t('account.confirm.heading');
    description = undefined;
    body = (
      <div className="mt-5">
        <OtherBrowserNote email={state.maskedEmail ?? ''} />
        <ErrorText id={errorId} message={errorText} />
        <div className="mt-6 flex flex-col gap-3">
          <Button size="lg" className="w-full" onClick={() => void confirmHere()} disabled={state.busy} data-autofocus>
            {state.busy ? <Spinner className="size-5" /> : null}
            {t('account.confirm.signInHere')}
          </Button>
          <Button variant="secondary" className="w-full" onClick={() => void resend()} disabled={state.busy}>
            {t('account.confirm.askHere')}
          </Button>
        </div>
      </div>
    );
  } else {
    title = t('account.signInDialog.doneTitle');
    description = undefined;
    body = (
      <div className="mt-5 flex flex-col items-center text-center" role="status">
        <span className="grid size-14 place-items-center rounded-full bg-emerald-100 text-emerald-700">
          <CheckIcon className="size-7" />
        </span>
        <p className="mt-4 text-ink-700">
          {rich(t('account.signInDialog.signedInAs', { email: state.user?.email ?? state.email }), {
            0: (text) => (
              <strong className="text-ink-950 [overflow-wrap:anywhere]" dir="ltr">
                {text}
              </strong>
            ),
          })}
        </p>
        <p className="mt-2 text-sm text-ink-600" data-testid="sign-in-merged">
          {state.merged ? t('account.signInDialog.merged') : t('account.signInDialog.saved')}
        </p>
        <div className="mt-6 flex w-full flex-col gap-3 sm:flex-row-reverse">
          <Button className="w-full sm:flex-1" onClick={onClose} data-autofocus>
            {t('account.signInDialog.continue')}
          </Button>
          <Link to="/account" onClick={onClose} className={buttonClasses('secondary', 'md', 'w-full sm:flex-1')}>
            {t('account.signInDialog.viewAccount')}
          </Link>
        </div>
      </div>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      className="max-w-md"
      testId="sign-in-dialog"
      focusKey={state.step}
    >
      {body}
    </Dialog>
  );
}
