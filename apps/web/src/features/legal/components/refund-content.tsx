import { REFUND_WINDOW_DAYS } from '@aidressup/contract';
import { Link } from 'react-router';
import { rich } from '../../../i18n/use-t';
import { useSupportEmail } from './legal-page';
import { useLegalText } from './use-legal-messages';

export function RefundContent({ supportEmail }: { supportEmail: string | null }) {
  const { t } = useLegalText();
  const support = useSupportEmail(supportEmail);
  return (
    <>
      <section>
        <h2>{t('legal.refund.s1.title')}</h2>
        <p>{rich(t('legal.refund.s1.p1', { days: REFUND_WINDOW_DAYS, email: support.email }), { 0: support.tag })}</p>
      </section>
      <section>
        <h2>{t('legal.refund.s2.title')}</h2>
        <ul>
          <li>{t('legal.refund.s2.li1')}</li>
          <li>{t('legal.refund.s2.li2')}</li>
          <li>{t('legal.refund.s2.li3', { days: REFUND_WINDOW_DAYS })}</li>
        </ul>
        <p>{rich(t('legal.refund.s2.p1'), { 0: (text) => <Link to="/terms-of-service">{text}</Link> })}</p>
      </section>
      <section>
        <h2>{t('legal.refund.s3.title')}</h2>
        <p>{t('legal.refund.s3.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.refund.s4.title')}</h2>
        <p>{t('legal.refund.s4.p1', { days: REFUND_WINDOW_DAYS })}</p>
      </section>
      <section>
        <h2>{t('legal.refund.s5.title')}</h2>
        <p>{t('legal.refund.s5.p1')}</p>
      </section>
    </>
  );
}
