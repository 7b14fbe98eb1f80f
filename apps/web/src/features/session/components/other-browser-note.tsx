import { rich, useT } from '../../../i18n/use-t';

/**
 * What a shopper is told before signing in with a code or link another browser asked for: whose
 * account it is (masked), and that nothing made in this browser moves into it.
 */
export function OtherBrowserNote({ email }: { email: string }) {
  const t = useT();
  return (
    <div className="space-y-3 text-start text-ink-700" data-testid="other-browser-note">
      <p>
        {rich(t('account.confirm.asked', { email }), {
          0: (text) => (
            <bdi className="font-semibold text-ink-950 [overflow-wrap:anywhere]" dir="ltr">
              {text}
            </bdi>
          ),
        })}
      </p>
      <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">{t('account.confirm.stays')}</p>
    </div>
  );
}
