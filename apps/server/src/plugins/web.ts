/**
 * Serves the built web app (`apps/web/dist`) at `/` with SPA fallback to index.html for
 * non-/api GET routes; hashed assets are cached for a year. Without a build, a small page says
 * the web app is not built. Unknown /api routes get a JSON 404.
 *
 * index.html is sent in the shopper's language (the web app's cookie, else Accept-Language):
 * `<html lang dir>` set to it and, for a language other than English, without the static English
 * first paint (the app paints the page in that language instead of flashing English).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { LOCALES, localeDirection, type Locale } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { escapeHtml } from '../html.js';
import { addVary, requestLocale, varyByLocale } from '../http/request-locale.js';
import { isApiRequest } from '../http/paths.js';
import { EMBED_NOT_BUILT_PAGE, embedCsp, embedLocale, embedPageHtml } from '../http/embed-page.js';
import { allowedOriginsOf, merchantByPublishableKey } from '../services/merchants.js';
import { CONTENT_SECURITY_POLICY } from './security.js';

/** `apps/web/dist`, found relative to this file (the same from src/plugins and dist/plugins). */
const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AI Dress Up</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
<h1>AI Dress Up</h1>
<p>The API is running, but the web app is not built. Run <code>npm run build</code>, then restart the server.</p>
<p><a href="/api/health">API health</a></p>
</body></html>`;

const HOME_SHELL = /<!-- shell:home\b[\s\S]*?<!-- \/shell:home -->/;

/** index.html without the part of the static first paint that belongs to the home page. */
function withoutHomeShell(html: string): string {
  return html.replace(HOME_SHELL, '');
}

/** `<html>` naming the page's language and direction (its other attributes kept). */
export function withHtmlLocale(html: string, locale: Locale): string {
  return html.replace(/<html\b([^>]*)>/i, (_tag, attributes: string) => {
    const others = attributes.replace(/\s+(?:lang|dir)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '');
    return `<html${others} lang="${locale}" dir="${localeDirection(locale)}">`;
  });
}

/**
 * index.html with the `data-prerender-shell` element emptied (the element itself, and `#root`
 * around it, stay): the static first paint is English text.
 */
export function withoutPrerenderShell(html: string): string {
  const open = /<div\b[^>]*\bdata-prerender-shell\b[^>]*>/i.exec(html);
  if (!open) return html;
  const start = open.index + open[0].length;
  const tags = /<(\/?)div\b[^>]*>/gi;
  tags.lastIndex = start;
  let depth = 1;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[1] ? -1 : 1;
    if (depth === 0) return html.slice(0, start) + html.slice(tag.index);
  }
  return html;
}

/** The document's title and description while the app loads, in each language but English (the file's own). */
const HEAD_TEXTS: Record<Exclude<Locale, 'en'>, { title: string; description: string }> = {
  es: {
    title: 'AI Dress Up: prueba virtual de ropa',
    description:
      'AI Dress Up: mírate con cualquier look. Sube una foto tuya y otra de una prenda, y nuestra IA te muestra con ella puesta en segundos.',
  },
  fr: {
    title: 'AI Dress Up\u00a0: essayage virtuel de vêtements',
    description:
      'AI Dress Up\u00a0: voyez-vous dans n’importe quelle tenue. Ajoutez une photo de vous et celle d’un vêtement\u00a0: notre IA vous le fait porter en quelques secondes.',
  },
  de: {
    title: 'AI Dress Up: Kleidung virtuell anprobieren',
    description:
      'AI Dress Up: Sieh dich in jedem Outfit. Lade ein Foto von dir und eins von einem Kleidungsstück hoch – unsere KI zeigt dich in Sekunden darin.',
  },
  'pt-BR': {
    title: 'AI Dress Up: prova virtual de roupas',
    description:
      'AI Dress Up: veja como você fica com qualquer look. Envie uma foto sua e uma da peça, e nossa IA mostra você vestindo a roupa em segundos.',
  },
  ar: {
    title: 'AI Dress Up: تجربة قياس الملابس افتراضيًا',
    description:
      'AI Dress Up: شاهد نفسك بأي إطلالة. ارفع صورة لك وصورة لقطعة ملابس، وسيُريك ذكاؤنا الاصطناعي وأنت ترتديها في ثوانٍ.',
  },
};

/** index.html as the server sends it to a shopper reading `locale`. */
function localizedIndex(html: string, locale: Locale): string {
  const page = withHtmlLocale(html, locale);
  if (locale === 'en') return page;
  const head = HEAD_TEXTS[locale];
  return withoutPrerenderShell(page)
    .replace(/<title>[^<]*<\/title>/i, `<title>${escapeHtml(head.title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/i,
      (_m, before: string, after: string) => `${before}${escapeHtml(head.description)}${after}`,
    );
}

interface IndexCopy {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

function indexCopy(html: string): IndexCopy {
  const data = Buffer.from(html);
  return {
    html,
    br: zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(data, { level: 9 }),
  };
}

/** The content coding to send: brotli, else gzip, when the client accepts it (q > 0); else none. */
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => {
        const [name = '', ...params] = part.trim().toLowerCase().split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return { name: name.trim(), ok: !q || Number(q.slice(2)) > 0 };
      })
      .filter((e) => e.ok)
      .map((e) => e.name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

export default fp(
  async function web(app: FastifyInstance, opts: { distDir?: string }) {
    const distDir = opts.distDir ?? DEFAULT_WEB_DIST;
    const indexFile = path.join(distDir, 'index.html');
    const built = fs.existsSync(indexFile);

    if (built) {
      await app.register(fastifyStatic, {
        root: distDir,
        prefix: '/',
        wildcard: false,
        index: false,
        // The web build writes .br and .gz siblings of every text asset.
        preCompressed: true,
        cacheControl: false,
        setHeaders(res, filePath) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.setHeader('cache-control', 'no-cache');
          }
        },
      });
    }

    // The page's static first paint holds the home page's hero; other routes get it without.
    // One copy per language and kind of route, compressed once.
    const source = built ? fs.readFileSync(indexFile, 'utf8') : '';
    const copies = new Map<string, IndexCopy>();
    if (built) {
      for (const locale of LOCALES) {
        const page = localizedIndex(source, locale);
        copies.set(`${locale}:home`, indexCopy(page));
        copies.set(`${locale}:other`, indexCopy(withoutHomeShell(page)));
      }
    }
    const sendIndex = async (request: FastifyRequest, reply: FastifyReply, home: boolean) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      if (!built) return reply.send(NOT_BUILT_PAGE);
      const copy = copies.get(`${requestLocale(request)}:${home ? 'home' : 'other'}`)!;
      varyByLocale(reply);
      addVary(reply, 'Accept-Encoding');
      const encoding = pickEncoding(request.headers['accept-encoding']);
      if (encoding === null) return reply.send(copy.html);
      return reply.header('content-encoding', encoding).send(copy[encoding]);
    };

    app.get('/', async (request, reply) => sendIndex(request, reply, true));

    // The shop widget's frame (docs/embed.md): framed by the merchant's allowed origins only.
    const embedFile = path.join(distDir, 'embed.html');
    const embedSource = fs.existsSync(embedFile) ? fs.readFileSync(embedFile, 'utf8') : null;
    app.get('/embed', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const key = typeof query.key === 'string' ? query.key : '';
      const lang = typeof query.lang === 'string' ? query.lang : undefined;
      const merchant = await merchantByPublishableKey(app.db, key);
      const csp = embedCsp(
        CONTENT_SECURITY_POLICY,
        merchant ? allowedOriginsOf(merchant) : 'any',
        app.config.publicUrl?.startsWith('https:') === true,
      );
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', csp)
        .header('referrer-policy', 'no-referrer')
        .removeHeader('x-frame-options');
      varyByLocale(reply);
      if (!embedSource) return reply.send(EMBED_NOT_BUILT_PAGE);
      return reply.send(
        embedPageHtml(embedSource, {
          key: merchant ? key : '',
          merchant: merchant?.name ?? null,
          locale: embedLocale(lang, requestLocale(request)),
        }),
      );
    });

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (isApiRequest(request)) throw new AppError('NOT_FOUND');
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new AppError('NOT_FOUND');
      // A missing file with an extension (e.g. /assets/x.js) is a 404, not the app.
      if (path.extname(url) !== '') throw new AppError('NOT_FOUND');
      return sendIndex(request, reply, false);
    });
  },
  { name: 'web' },
);
