/**
 * The public page of a shared result, GET /s/:token, and its image, GET /s/:token/image: no
 * session, not part of the API document. Sharing itself is `routes/tryons/gallery.ts`; the page's
 * HTML is `http/share-page.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { SHARE_PATH_PREFIX, SHARE_TOKEN_PATTERN } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { serverOrigin } from '../http/public-origin.js';
import { requestLocale, varyByLocale } from '../http/request-locale.js';
import { renderShareNotFound, renderSharePage } from '../http/share-page.js';
import { findShared, shareUrl, sharedImage, type GalleryDeps } from '../services/gallery.js';
import { CONTENT_TYPES } from '../storage/storage.js';
import { isPreviewEngine } from '../tryon/preview-photos.js';

/** Share pages and their images: never kept by a shared cache, nor by the browser. */
const SHARE_CACHE_CONTROL = 'private, no-store';

export default async function sharePageRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const deps = (): GalleryDeps => ({ db: app.db, storage: app.storage, clock: app.clock, log: app.log });

  // Public pages: no session, so no per-user limit, but the API's per-address limit.
  const publicLimit = app.perRouteLimit('share-page', config.rateLimits.globalPerMinute);

  app.get<{ Params: { token: string } }>(
    `${SHARE_PATH_PREFIX}:token`,
    { onRequest: publicLimit },
    async (request, reply) => {
      const { token } = request.params;
      const row = SHARE_TOKEN_PATTERN.test(token) ? await findShared(deps(), token) : undefined;
      // In the visitor's language: the web app's language cookie, else Accept-Language.
      const locale = requestLocale(request);
      varyByLocale(reply);
      reply
        .header('cache-control', SHARE_CACHE_CONTROL)
        .header('x-robots-tag', 'noindex')
        .type('text/html; charset=utf-8');
      if (!row?.result_name) return reply.code(404).send(renderShareNotFound(locale));
      const pageUrl = shareUrl(serverOrigin(app, request), token);
      return reply.send(
        renderSharePage(
          {
            pageUrl,
            imageUrl: `${pageUrl}/image`,
            imageType: CONTENT_TYPES[row.result_name.slice(row.result_name.lastIndexOf('.'))] ?? 'image/jpeg',
            category: row.category,
            createdAt: row.created_at,
            expiresAt: row.expires_at,
            preview: isPreviewEngine(row.engine),
          },
          locale,
        ),
      );
    },
  );

  app.get<{ Params: { token: string } }>(
    `${SHARE_PATH_PREFIX}:token/image`,
    { onRequest: publicLimit },
    async (request, reply) => {
      const { token } = request.params;
      const found = SHARE_TOKEN_PATTERN.test(token) ? await sharedImage(deps(), token) : null;
      if (!found) throw new AppError('NOT_FOUND');
      const { row, object } = found;
      const ext = row.result_name!.slice(row.result_name!.lastIndexOf('.'));
      if (object.size !== undefined) reply.header('content-length', object.size);
      return (
        reply
          .type(object.contentType)
          .header('cache-control', SHARE_CACHE_CONTROL)
          .header('x-robots-tag', 'noindex')
          // Meant to be seen elsewhere: link previews may load it from another origin.
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('content-disposition', `inline; filename="ai-dress-up${ext}"`)
          .send(object.stream)
      );
    },
  );
}
