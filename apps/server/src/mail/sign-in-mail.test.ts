import { describe, expect, it } from 'vitest';
import { LOCALES, MESSAGES } from '@aidressup/contract';
import { signInMail } from './sign-in-mail.js';

const input = { to: 'shopper@example.com', code: '042917', link: 'https://app.test/sign-in/verify#email=a&token=b' };

describe('the sign-in mail', () => {
  it('is the same English mail without a language or with English', () => {
    const mail = signInMail(input);
    expect(mail.subject).toBe(MESSAGES.signInMailSubject);
    expect(mail.text).toBe(
      [
        'Your AI Dress Up sign-in code is 042917',
        '',
        'Or sign in with one click: https://app.test/sign-in/verify#email=a&token=b',
        '',
        'The code and the link work once, for 10 minutes.',
        'If you did not ask to sign in, you can ignore this mail.',
      ].join('\n'),
    );
    expect(mail.html).toContain('<html><body ');
    expect(mail.html).toContain(
      '<a href="https://app.test/sign-in/verify#email=a&amp;token=b">Sign in with one click</a>',
    );
    expect(signInMail({ ...input, locale: 'en' })).toEqual(mail);
  });

  it('is written in the asked language, with the same code and link', () => {
    const es = signInMail({ ...input, locale: 'es' });
    expect(es.subject).toBe('Tu código para iniciar sesión en AI Dress Up');
    expect(es.text).toContain('Tu código para iniciar sesión en AI Dress Up es 042917');
    expect(es.text).toContain('durante 10 minutos.');
    expect(es.html).toContain('<html lang="es" dir="ltr">');
    expect(es.html).toContain('>Iniciar sesión con un clic</a>');

    const ar = signInMail({ ...input, locale: 'ar' });
    expect(ar.subject).toBe('رمز تسجيل الدخول إلى AI Dress Up');
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('ولمدة 10 دقائق.');

    for (const locale of LOCALES) {
      const mail = signInMail({ ...input, locale });
      expect(mail.text, locale).toContain('042917');
      expect(mail.text, locale).toContain(input.link);
      expect(mail.html, locale).toContain('>042917</p>');
      expect(mail.html, locale).toContain('href="https://app.test/sign-in/verify#email=a&amp;token=b"');
      if (locale !== 'en') expect(mail.subject, locale).not.toBe(MESSAGES.signInMailSubject);
    }
  });
});
