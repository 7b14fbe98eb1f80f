/**
 * Managing My Gallery: DELETE /api/tryons/:id, POST and DELETE /api/tryons/:id/share, and the
 * public share page GET /s/:token with its image GET /s/:token/image (no session; not part of
 * the API document). The list itself, GET /api/tryons, is in tryon.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DeleteTryOnResponseSchema,
  SHARE_PATH_PREFIX,
  SHARE_TOKEN_PATTERN,
  ShareTryOnResponseSchema,
  TryOnIdParamsSchema,
  UnshareTryOnResponseSchema,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { requireSessionUserId } from '../plugins/session.js';
import { CONTENT_TYPES } from '../storage/storage.js';
import {
  deleteResult,
  findShared,
  shareResult,
  shareUrl,
  sharedImage,
  unshareResult,
  type GalleryDeps,
} from '../services/gallery.js';
import { ERROR_RESPONSES } from './schemas.js';
import { serverOrigin } from './public-origin.js';
import { renderShareNotFound, renderSharePage } from './share-page.js';
import { requestLocale, varyByLocale } from './request-locale.js';

/** Share pages and their images: never kept by a shared cache, nor by the browser. */
const SHARE_CACHE_CONTROL = 'private, no-store';

export default async function galleryRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const security = [{ session: [] }];
  const deps = (): GalleryDeps => ({ db: app.db, storage: app.storage, clock: app.clock, log: app.log });
  // Another user's try-on, an unknown one, or an id that is not one: all simply not found.
  const idRoute = { invalidInput: { otherwise: 'NOT_FOUND' as const } };

  app.delete(
    '/api/tryons/:id',
    {
      schema: {
        summary: 'Delete one of the session user’s results: the row, then the image (its URL answers 404 from then on)',
        description: 'Another user’s try-on, an unknown id, or a try-on still processing: 404 NOT_FOUND.',
        tags: ['gallery'],
        security,
        params: TryOnIdParamsSchema,
        response: { 200: DeleteTryOnResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => {
      await deleteResult(deps(), requireSessionUserId(request), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/api/tryons/:id/share',
    {
      schema: {
        summary:
          'Share one of the session user’s results by a public link (the same link on every call until sharing stops)',
        description:
          'The link is `<PUBLIC_URL>/s/<token>`; it works until sharing stops or the result expires. Not the owner’s, or not kept: 404 NOT_FOUND.',
        tags: ['gallery'],
        security,
        params: TryOnIdParamsSchema,
        response: { 200: ShareTryOnResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => {
      const token = await shareResult(deps(), requireSessionUserId(request), request.params.id);
      return { success: true as const, url: shareUrl(serverOrigin(app, request), token) };
    },
  );

  app.delete(
    '/api/tryons/:id/share',
    {
      schema: {
        summary: 'Stop sharing one of the session user’s results: its public page and image answer 404',
        description: 'Not the owner’s, or unknown: 404 NOT_FOUND. A result not shared stays not shared (200).',
        tags: ['gallery'],
        security,
        params: TryOnIdParamsSchema,
        response: { 200: UnshareTryOnResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => {
      await unshareResult(deps(), requireSessionUserId(request), request.params.id);
      return { success: true as const };
    },
  );

  // Public pages: no session, so no per-user limit, but the API's per-address limit.
  const publicLimit = app.perRouteLimit('share-page', config.rateLimits.globalPerMinute);

  instance.get<{ Params: { token: string } }>(
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
          },
          locale,
        ),
      );
    },
  );

  instance.get<{ Params: { token: string } }>(
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
