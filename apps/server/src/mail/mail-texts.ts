/**
 * The sign-in mail's words in every language the product speaks. English is the source (its
 * subject is the contract's `MESSAGES.signInMailSubject`); the others are written for their
 * readers, not word for word. The code and the link are added by `sign-in-mail.ts`.
 */
import { MESSAGES, type Locale } from '@aidressup/contract';

export interface SignInMailTexts {
  subject: string;
  /** The text part's first line, ending with the code. */
  codeLine: (code: string) => string;
  /** The HTML part's line above the code. */
  codeIntro: string;
  /** The text part's line with the magic link. */
  linkLine: (link: string) => string;
  /** The HTML part's link text. */
  linkLabel: string;
  /** How long and how often the code and the link work. */
  validity: (minutes: number) => string;
  ignore: string;
}

/** "10 minutes" in Arabic: the count's plural form (1 and 2 are words of their own). */
function arabicMinutes(n: number): string {
  switch (new Intl.PluralRules('ar').select(n)) {
    case 'one':
      return 'دقيقة واحدة';
    case 'two':
      return 'دقيقتين';
    case 'few':
      return `${n} دقائق`;
    default:
      return `${n} دقيقة`;
  }
}

const plural = (locale: string, n: number, one: string, other: string) =>
  new Intl.PluralRules(locale).select(n) === 'one' ? one : other;

export const SIGN_IN_MAIL_TEXTS: Record<Locale, SignInMailTexts> = {
  en: {
    subject: MESSAGES.signInMailSubject,
    codeLine: (code) => `Your AI Dress Up sign-in code is ${code}`,
    codeIntro: 'Your AI Dress Up sign-in code is',
    linkLine: (link) => `Or sign in with one click: ${link}`,
    linkLabel: 'Sign in with one click',
    validity: (minutes) => `The code and the link work once, for ${minutes} minutes.`,
    ignore: 'If you did not ask to sign in, you can ignore this mail.',
  },
  es: {
    subject: 'Tu código para iniciar sesión en AI Dress Up',
    codeLine: (code) => `Tu código para iniciar sesión en AI Dress Up es ${code}`,
    codeIntro: 'Tu código para iniciar sesión en AI Dress Up es',
    linkLine: (link) => `O inicia sesión con un solo clic: ${link}`,
    linkLabel: 'Iniciar sesión con un clic',
    validity: (minutes) =>
      `El código y el enlace solo sirven una vez y durante ${minutes} ${plural('es', minutes, 'minuto', 'minutos')}.`,
    ignore: 'Si no has pedido iniciar sesión, puedes ignorar este correo.',
  },
  fr: {
    subject: 'Votre code de connexion AI Dress Up',
    codeLine: (code) => `Voici votre code de connexion AI Dress Up\u00a0: ${code}`,
    codeIntro: 'Voici votre code de connexion AI Dress Up\u00a0:',
    linkLine: (link) => `Ou connectez-vous en un clic\u00a0: ${link}`,
    linkLabel: 'Se connecter en un clic',
    validity: (minutes) =>
      `Le code et le lien ne fonctionnent qu’une fois, pendant ${minutes}\u00a0${plural('fr', minutes, 'minute', 'minutes')}.`,
    ignore: 'Si vous n’avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail.',
  },
  de: {
    subject: 'Dein Anmeldecode für AI Dress Up',
    codeLine: (code) => `Dein Anmeldecode für AI Dress Up lautet ${code}`,
    codeIntro: 'Dein Anmeldecode für AI Dress Up lautet',
    linkLine: (link) => `Oder melde dich mit einem Klick an: ${link}`,
    linkLabel: 'Mit einem Klick anmelden',
    validity: (minutes) =>
      `Code und Link funktionieren nur einmal und sind ${minutes} ${plural('de', minutes, 'Minute', 'Minuten')} lang gültig.`,
    ignore: 'Wenn du keine Anmeldung angefordert hast, kannst du diese E-Mail einfach ignorieren.',
  },
  'pt-BR': {
    subject: 'Seu código de acesso ao AI Dress Up',
    codeLine: (code) => `Seu código de acesso ao AI Dress Up é ${code}`,
    codeIntro: 'Seu código de acesso ao AI Dress Up é',
    linkLine: (link) => `Ou entre com um clique: ${link}`,
    linkLabel: 'Entrar com um clique',
    validity: (minutes) =>
      `O código e o link funcionam uma única vez e valem por ${minutes} ${plural('pt-BR', minutes, 'minuto', 'minutos')}.`,
    ignore: 'Se você não pediu para entrar, pode ignorar este e-mail.',
  },
  ar: {
    subject: 'رمز تسجيل الدخول إلى AI Dress Up',
    codeLine: (code) => `رمز تسجيل الدخول إلى AI Dress Up هو ${code}`,
    codeIntro: 'رمز تسجيل الدخول إلى AI Dress Up هو',
    linkLine: (link) => `أو سجّل الدخول بنقرة واحدة: ${link}`,
    linkLabel: 'سجّل الدخول بنقرة واحدة',
    validity: (minutes) => `يعمل الرمز والرابط مرة واحدة فقط، ولمدة ${arabicMinutes(minutes)}.`,
    ignore: 'إذا لم تطلب تسجيل الدخول، فيمكنك تجاهل هذه الرسالة.',
  },
};
