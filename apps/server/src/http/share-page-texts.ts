/**
 * The share page's words (`/s/<token>`) in every language the product speaks. English is the
 * source; the others are written for their readers. Arguments arrive as HTML already escaped
 * (a `<time>` element, the brand's `<span>`), texts are escaped by the page.
 */
import { TRYON_CATEGORIES, type Locale, type TryOnCategory } from '@aidressup/contract';

export interface SharePageTexts {
  /** Category names as the web app shows them. */
  categories: Record<TryOnCategory, string>;
  /** The built-in engine's results: the label and what it means. */
  previewBadge: string;
  previewText: string;
  title: string;
  description: string;
  alt: (category: string | null) => string;
  /** The heading's HTML around the brand's HTML. */
  heading: (brandHtml: string) => string;
  /** "<category> try-on, made on <date>" (HTML). */
  made: (category: string | null, timeHtml: string) => string;
  cta: string;
  /** "This shared link works until <date>…" (HTML). */
  until: (timeHtml: string, days: number) => string;
  footer: string;
  notFoundTitle: string;
  notFoundHeading: string;
  notFoundText: (days: number) => string;
}

const plural = (locale: string, n: number, one: string, other: string) =>
  `${n}\u00a0${new Intl.PluralRules(locale).select(n) === 'one' ? one : other}`;

/** "30 days" in Arabic: the count's plural form (1 and 2 are words of their own). */
function arabicDays(n: number): string {
  switch (new Intl.PluralRules('ar').select(n)) {
    case 'one':
      return 'يوم واحد';
    case 'two':
      return 'يومين';
    case 'few':
      return `${n} أيام`;
    case 'many':
      return `${n} يومًا`;
    default:
      return `${n} يوم`;
  }
}

export const SHARE_PAGE_TEXTS: Record<Locale, SharePageTexts> = {
  en: {
    categories: Object.fromEntries(TRYON_CATEGORIES.map((c) => [c.value, c.label])) as Record<TryOnCategory, string>,
    previewBadge: 'Quick preview',
    previewText: 'Made by the built-in engine: a fast sketch of the fit, not a photo-real picture.',
    title: 'A look made with AI Dress Up',
    description:
      'See yourself in any outfit before you buy: upload a photo and a garment, and AI shows you wearing it.',
    alt: (category) => (category ? `AI try-on result, ${category}` : 'AI try-on result'),
    heading: (brand) => `A look made with ${brand}`,
    made: (category, time) => `${category ? `${category} try-on, ` : ''}made on ${time}`,
    cta: 'Try it yourself',
    until: (time, days) => `This shared link works until ${time}: results are kept ${days} days.`,
    footer: 'AI Dress Up: virtual clothing try-on',
    notFoundTitle: 'Link not available · AI Dress Up',
    notFoundHeading: 'This link is not available',
    notFoundText: (days) => `The owner stopped sharing this try-on, or it has expired: results are kept ${days} days.`,
  },
  es: {
    categories: {
      upper_body: 'Parte superior',
      lower_body: 'Parte inferior',
      dresses: 'Conjunto completo',
      accessories: 'Calzado y accesorios',
    },
    previewBadge: 'Vista previa rápida',
    previewText: 'Hecho con el motor integrado: un boceto rápido de cómo te queda, no una imagen fotorrealista.',
    title: 'Un look creado con AI Dress Up',
    description:
      'Mírate con cualquier look antes de comprar: sube una foto y una prenda, y la IA te muestra con ella puesta.',
    alt: (category) =>
      category ? `Resultado de la prueba virtual con IA, ${category}` : 'Resultado de la prueba virtual con IA',
    heading: (brand) => `Un look creado con ${brand}`,
    made: (category, time) => (category ? `Prueba virtual (${category}), creada el ${time}` : `Creada el ${time}`),
    cta: 'Pruébalo tú',
    until: (time, days) =>
      `Este enlace compartido funciona hasta el ${time}: los resultados se guardan ${plural('es', days, 'día', 'días')}.`,
    footer: 'AI Dress Up: prueba virtual de ropa',
    notFoundTitle: 'Enlace no disponible · AI Dress Up',
    notFoundHeading: 'Este enlace no está disponible',
    notFoundText: (days) =>
      `Se dejó de compartir esta prueba virtual o ya caducó: los resultados se guardan ${plural('es', days, 'día', 'días')}.`,
  },
  fr: {
    categories: {
      upper_body: 'Haut',
      lower_body: 'Bas',
      dresses: 'Tenue complète',
      accessories: 'Chaussures et accessoires',
    },
    previewBadge: 'Aperçu rapide',
    previewText: 'Réalisé avec le moteur intégré : une esquisse rapide du tombé, pas une image photoréaliste.',
    title: 'Un look créé avec AI Dress Up',
    description:
      'Voyez-vous dans n’importe quelle tenue avant d’acheter\u00a0: ajoutez une photo et un vêtement, et l’IA vous le fait porter.',
    alt: (category) => (category ? `Résultat de l’essayage par IA, ${category}` : 'Résultat de l’essayage par IA'),
    heading: (brand) => `Un look créé avec ${brand}`,
    made: (category, time) => (category ? `Essayage (${category}), réalisé le ${time}` : `Réalisé le ${time}`),
    cta: 'Essayez vous-même',
    until: (time, days) =>
      `Ce lien de partage fonctionne jusqu’au ${time}\u00a0: les résultats sont conservés ${plural('fr', days, 'jour', 'jours')}.`,
    footer: 'AI Dress Up\u00a0: essayage virtuel de vêtements',
    notFoundTitle: 'Lien indisponible · AI Dress Up',
    notFoundHeading: 'Ce lien n’est pas disponible',
    notFoundText: (days) =>
      `Cet essayage n’est plus partagé, ou il a expiré\u00a0: les résultats sont conservés ${plural('fr', days, 'jour', 'jours')}.`,
  },
  de: {
    categories: {
      upper_body: 'Oberteil',
      lower_body: 'Unterteil',
      dresses: 'Komplettes Outfit',
      accessories: 'Schuhe & Accessoires',
    },
    previewBadge: 'Schnellvorschau',
    previewText:
      'Mit der integrierten Engine erstellt: eine schnelle Skizze der Passform, kein fotorealistisches Bild.',
    title: 'Ein Look, erstellt mit AI Dress Up',
    description:
      'Sieh dich vor dem Kauf in jedem Outfit: Lade ein Foto und ein Kleidungsstück hoch, und die KI zeigt dich darin.',
    alt: (category) => (category ? `Ergebnis der KI-Anprobe, ${category}` : 'Ergebnis der KI-Anprobe'),
    heading: (brand) => `Ein Look, erstellt mit ${brand}`,
    made: (category, time) => (category ? `Anprobe (${category}), erstellt am ${time}` : `Erstellt am ${time}`),
    cta: 'Probier es selbst aus',
    until: (time, days) =>
      `Dieser geteilte Link funktioniert bis zum ${time}: Ergebnisse werden ${plural('de', days, 'Tag', 'Tage')} lang gespeichert.`,
    footer: 'AI Dress Up: Kleidung virtuell anprobieren',
    notFoundTitle: 'Link nicht verfügbar · AI Dress Up',
    notFoundHeading: 'Dieser Link ist nicht verfügbar',
    notFoundText: (days) =>
      `Diese Anprobe wird nicht mehr geteilt oder ist abgelaufen: Ergebnisse werden ${plural('de', days, 'Tag', 'Tage')} lang gespeichert.`,
  },
  'pt-BR': {
    categories: {
      upper_body: 'Parte de cima',
      lower_body: 'Parte de baixo',
      dresses: 'Look completo',
      accessories: 'Calçados e acessórios',
    },
    previewBadge: 'Prévia rápida',
    previewText: 'Feito pelo mecanismo integrado: um esboço rápido do caimento, não uma imagem fotorrealista.',
    title: 'Um look criado com o AI Dress Up',
    description:
      'Veja como você fica com qualquer look antes de comprar: envie uma foto e uma peça, e a IA mostra você vestindo a roupa.',
    alt: (category) =>
      category ? `Resultado da prova virtual com IA, ${category}` : 'Resultado da prova virtual com IA',
    heading: (brand) => `Um look criado com o ${brand}`,
    made: (category, time) => (category ? `Prova virtual (${category}), criada em ${time}` : `Criada em ${time}`),
    cta: 'Experimente você também',
    until: (time, days) =>
      `Este link compartilhado funciona até ${time}: os resultados ficam guardados por ${plural('pt-BR', days, 'dia', 'dias')}.`,
    footer: 'AI Dress Up: prova virtual de roupas',
    notFoundTitle: 'Link indisponível · AI Dress Up',
    notFoundHeading: 'Este link não está disponível',
    notFoundText: (days) =>
      `Esta prova virtual não está mais sendo compartilhada, ou expirou: os resultados ficam guardados por ${plural('pt-BR', days, 'dia', 'dias')}.`,
  },
  ar: {
    categories: {
      upper_body: 'الجزء العلوي',
      lower_body: 'الجزء السفلي',
      dresses: 'إطلالة كاملة',
      accessories: 'الأحذية والإكسسوارات',
    },
    previewBadge: 'معاينة سريعة',
    previewText: 'صُنعت بالمحرّك المدمج: رسم سريع يوضح المقاس، وليست صورة واقعية.',
    title: 'إطلالة صُمّمت باستخدام AI Dress Up',
    description: 'شاهد نفسك بأي إطلالة قبل الشراء: ارفع صورة وقطعة ملابس، وسيُريك الذكاء الاصطناعي وأنت ترتديها.',
    alt: (category) =>
      category ? `نتيجة تجربة القياس بالذكاء الاصطناعي، ${category}` : 'نتيجة تجربة القياس بالذكاء الاصطناعي',
    heading: (brand) => `إطلالة صُمّمت باستخدام ${brand}`,
    made: (category, time) => (category ? `تجربة قياس (${category})، أُنشئت في ${time}` : `أُنشئت في ${time}`),
    cta: 'جرّبها بنفسك',
    until: (time, days) => `يعمل رابط المشاركة هذا حتى ${time}: نحتفظ بالنتائج لمدة ${arabicDays(days)}.`,
    footer: 'AI Dress Up: تجربة قياس الملابس افتراضيًا',
    notFoundTitle: 'الرابط غير متاح · AI Dress Up',
    notFoundHeading: 'هذا الرابط غير متاح',
    notFoundText: (days) =>
      `توقفت مشاركة تجربة القياس هذه، أو انتهت صلاحيتها: نحتفظ بالنتائج لمدة ${arabicDays(days)}.`,
  },
};
