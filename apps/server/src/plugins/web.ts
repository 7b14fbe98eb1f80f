/**
 * Serves the built web app (`apps/web/dist`) at `/` with SPA fallback to index.html for
 * non-/api GET routes; hashed assets are cached for a year. Without a build, a small page says
 * the web app is not built. Unknown /api routes get a JSON 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { AppError } from '../errors.js';

/** `apps/web/dist`, found relative to this file (the same from src/plugins and dist/plugins). */
export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

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
export function withoutHomeShell(html: string): string {
  return html.replace(HOME_SHELL, '');
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
    const otherRoutesIndex = built ? withoutHomeShell(fs.readFileSync(indexFile, 'utf8')) : NOT_BUILT_PAGE;
    const sendIndex = async (reply: import('fastify').FastifyReply, home: boolean) => {
      if (built && home) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(otherRoutesIndex);
    };

    app.get('/', async (_request, reply) => sendIndex(reply, true));

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (url === '/api' || url.startsWith('/api/')) throw new AppError('NOT_FOUND');
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new AppError('NOT_FOUND');
      // A missing file with an extension (e.g. /assets/x.js) is a 404, not the app.
      if (path.extname(url) !== '') throw new AppError('NOT_FOUND');
      return sendIndex(reply, false);
    });
  },
  { name: 'web' },
);
