import {
  CREDITS_PER_TRYON,
  RESULT_RETENTION_DAYS,
  UPLOAD_RETENTION_MINUTES,
  type PublicPlan,
} from '@aidressup/contract';
import { Link } from 'react-router';
import { formatters } from '../../../i18n/format';
import { rich, useLocale } from '../../../i18n/use-t';
import { useSupportEmail } from './legal-page';
import { useLegalText } from './use-legal-messages';

const strong = (text: string) => <strong>{text}</strong>;

export function TermsContent({ supportEmail, plans }: { supportEmail: string | null; plans: PublicPlan[] | null }) {
  const { t, english } = useLegalText();
  const locale = useLocale();
  const f = formatters(english ? 'en' : locale);
  const support = useSupportEmail(supportEmail);
  return (
    <>
      <section>
        <h2>{t('legal.terms.s1.title')}</h2>
        <p>{t('legal.terms.s1.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s2.title')}</h2>
        <p>{t('legal.terms.s2.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s3.title')}</h2>
        <p>{t('legal.terms.s3.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s4.title')}</h2>
        <ul>
          <li>{t('legal.terms.s4.li1')}</li>
          <li>{t('legal.terms.s4.li2', { credits: CREDITS_PER_TRYON })}</li>
          <li>{t('legal.terms.s4.li3')}</li>
          <li>{t('legal.terms.s4.li4')}</li>
          <li>{t('legal.terms.s4.li5')}</li>
        </ul>
        {plans && plans.length > 0 ? (
          <ul>
            {plans.map((p) => (
              <li key={p.id}>
                {rich(
                  t('legal.terms.s4.plan', {
                    name: t(`legal.terms.s4.planName.${p.id}`),
                    price: f.price(p.priceValue, p.currency),
                    period: p.period === 'one-time' ? 'once' : p.period,
                    credits: p.credits,
                    validity: p.validityDays === null ? 'never' : 'days',
                    days: p.validityDays ?? 0,
                  }),
                  { 0: strong },
                )}
              </li>
            ))}
          </ul>
        ) : null}
        <p>{rich(t('legal.terms.s4.p1'), { 0: (text) => <Link to="/refund-policy">{text}</Link> })}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s5.title')}</h2>
        <p>{t('legal.terms.s5.p1')}</p>
        <ul>
          <li>{t('legal.terms.s5.li1')}</li>
          <li>{t('legal.terms.s5.li2')}</li>
          <li>{t('legal.terms.s5.li3')}</li>
          <li>{t('legal.terms.s5.li4')}</li>
          <li>{t('legal.terms.s5.li5')}</li>
        </ul>
        <p>{t('legal.terms.s5.p2')}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s6.title')}</h2>
        <p>
          {rich(t('legal.terms.s6.p1', { minutes: UPLOAD_RETENTION_MINUTES, days: RESULT_RETENTION_DAYS }), {
            0: (text) => <Link to="/privacy-policy">{text}</Link>,
          })}
        </p>
      </section>
      <section>
        <h2>{t('legal.terms.s7.title')}</h2>
        <p>{t('legal.terms.s7.p1')}</p>
      </section>
      <section>
        <h2>{t('legal.terms.s8.title')}</h2>
        <p>{rich(t('legal.terms.s8.p1', { email: support.email }), { 0: support.tag })}</p>
      </section>
    </>
  );
}
