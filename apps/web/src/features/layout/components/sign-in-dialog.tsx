import { useState } from 'react';
import type { User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CheckIcon, InfoIcon } from '../../../components/ui/icons';

export interface SignInDialogProps {
  open: boolean;
  onClose: () => void;
  user: User | null;
  supportEmail: string | null;
}

/** Sign In: tells the truth about how accounts work here (the account lives on this device). */
export function SignInDialog({ open, onClose, user, supportEmail }: SignInDialogProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!user) return;
    try {
      await navigator.clipboard.writeText(user.id);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Your account lives on this device"
      description="There is nothing to sign in to: AI Dress Up creates an account for this browser automatically, with no e-mail or password."
      className="max-w-lg"
      testId="sign-in-dialog"
    >
      <div className="mt-6 space-y-4 text-sm leading-6 text-ink-700">
        <p>
          Your free try-ons, credits and plan belong to this device and browser. If you clear this site&apos;s data or switch to another
          device, you start with a new account.
        </p>
        <div className="rounded-2xl border border-ink-200 bg-ink-50 p-4">
          <p className="text-xs font-semibold tracking-wide text-ink-500 uppercase">Your account id</p>
          {user ? (
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code
                className="min-w-0 flex-1 rounded-lg bg-white px-3 py-2 font-mono text-sm break-all text-ink-900 ring-1 ring-ink-200"
                data-testid="account-id"
              >
                {user.id}
              </code>
              <Button variant="secondary" size="sm" onClick={copy}>
                {copied ? <CheckIcon className="size-4" /> : null}
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
          ) : (
            <p className="mt-2 text-ink-600">Your account is being set up. Please wait a moment.</p>
          )}
        </div>
        <p className="flex gap-2">
          <InfoIcon className="mt-1 size-4 shrink-0 text-brand-600" />
          <span>
            Need help with a purchase or your data? Quote this id when you write to{' '}
            {supportEmail ? (
              <a className="font-semibold text-brand-700 underline underline-offset-4" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
            ) : (
              'our support team'
            )}
            .
          </span>
        </p>
      </div>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose} data-autofocus>
          Got it
        </Button>
      </div>
    </Dialog>
  );
}
