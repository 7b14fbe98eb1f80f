import {
  DEFAULT_KEPT_PHOTO_DAYS,
  MAX_KEPT_PHOTOS,
  RESULT_RETENTION_DAYS,
  SIGN_IN_CODE_TTL_MINUTES,
  TRANSACTION_RETENTION_YEARS,
  UPLOAD_RETENTION_MINUTES,
} from '@aidressup/contract';
import { rich } from '../../../i18n/use-t';
import { useSupportEmail } from './legal-page';
import { useLegalText } from './use-legal-messages';

const strong = (text: string) => <strong>{text}</strong>;

export function PrivacyContent({
  supportEmail,
  keptPhotoDays = DEFAULT_KEPT_PHOTO_DAYS,
}: {
  supportEmail: string | null;
  /** Days a kept person photo stays without use (the server's KEPT_PHOTO_DAYS). */
  keptPhotoDays?: number;
}) {
  const { t } = useLegalText();
  const support = useSupportEmail(supportEmail);
  return (
    <>
      <section>
        <h2>{t('legal.privacy.s1.title')}</h2>
        <ul>
          <li>{rich(t('legal.privacy.s1.li1'), { 0: strong })}</li>
          <li>{rich(t('legal.privacy.s1.li2', { minutes: SIGN_IN_CODE_TTL_MINUTES }), { 0: strong })}</li>
          <li>{rich(t('legal.privacy.s1.li3'), { 0: strong, 1: strong })}</li>
          <li>{rich(t('legal.privacy.s1.li4'), { 0: strong })}</li>
          <li>{t('legal.privacy.s1.li5')}</li>
        </ul>
      </section>
      <section>
        <h2>{t('legal.privacy.s2.title')}</h2>
        <ul>
          <li>{t('legal.privacy.s2.li1', { minutes: UPLOAD_RETENTION_MINUTES })}</li>
          <li>{t('legal.privacy.s2.kept', { max: MAX_KEPT_PHOTOS, days: keptPhotoDays })}</li>
          <li>{t('legal.privacy.s2.li2', { days: RESULT_RETENTION_DAYS })}</li>
          <li>{t('legal.privacy.s2.li3', { years: TRANSACTION_RETENTION_YEARS })}</li>
          <li>{t('legal.privacy.s2.li4')}</li>
        </ul>
        <p>{t('legal.privacy.s2.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.privacy.s3.title')}</h2>
        <p>{rich(t('legal.privacy.s3.p1', { years: TRANSACTION_RETENTION_YEARS }), { 0: strong })}</p>
      </section>
      <section>
        <h2>{t('legal.privacy.s4.title')}</h2>
        <ul>
          <li>{t('legal.privacy.s4.li1')}</li>
          <li>{t('legal.privacy.s4.li2')}</li>
          <li>{t('legal.privacy.s4.li3')}</li>
          <li>{t('legal.privacy.s4.li4')}</li>
        </ul>
        <p>{t('legal.privacy.s4.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.privacy.s5.title')}</h2>
        <ul>
          <li>{t('legal.privacy.s5.li1')}</li>
          <li>{t('legal.privacy.s5.li2')}</li>
          <li>{t('legal.privacy.s5.li3')}</li>
          <li>{t('legal.privacy.s5.li4')}</li>
        </ul>
      </section>
      <section>
        <h2>{t('legal.privacy.s6.title')}</h2>
        <p>{t('legal.privacy.s6.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.privacy.s7.title')}</h2>
        <p>{rich(t('legal.privacy.s7.p1', { email: support.email }), { 0: support.tag })}</p>
      </section>
      <section>
        <h2>{t('legal.privacy.s8.title')}</h2>
        <p>{t('legal.privacy.s8.p1')}</p>
      </section>
    </>
  );
}
