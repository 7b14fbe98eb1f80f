/**
 * My Gallery: GET /api/tryons (the session user's results, a page at a time), DELETE
 * /api/tryons/:id, POST and DELETE /api/tryons/:id/share, GET /api/tryons/:id/garment (a kept
 * preview's garment, small, for its owner only). The public share pages are
 * `routes/share-pages.ts`.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DeleteTryOnResponseSchema,
  ShareTryOnResponseSchema,
  TryOnIdParamsSchema,
  TryOnListQuerySchema,
  TryOnListResponseSchema,
  UnshareTryOnResponseSchema,
} from '@aidressup/contract';
import { requireSessionUserId } from '../../http/session.js';
import { ERROR_RESPONSES, IMAGE_RESPONSE } from '../../http/schemas.js';
import { serverOrigin } from '../../http/public-origin.js';
import {
  deleteResult,
  garmentThumbnail,
  listGalleryPage,
  shareResult,
  shareUrl,
  unshareResult,
  type GalleryDeps,
} from '../../services/gallery.js';

export default async function galleryRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const security = [{ session: [] }];
  const deps = (): GalleryDeps => ({ db: app.db, storage: app.storage, clock: app.clock, log: app.log });
  // Another user's try-on, an unknown one, or an id that is not one: all simply not found.
  const idRoute = { invalidInput: { otherwise: 'NOT_FOUND' as const } };

  app.get(
    '/api/tryons',
    {
      schema: {
        summary: 'The session user’s results (My Gallery), newest first, a page at a time (`nextCursor` → `before`)',
        tags: ['tryon'],
        security,
        querystring: TryOnListQuerySchema,
        response: { 200: TryOnListResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const userId = requireSessionUserId(request);
      return {
        success: true as const,
        ...(await listGalleryPage({ db: app.db, clock: app.clock }, userId, request.query, serverOrigin(app, request))),
      };
    },
  );

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

  app.get(
    '/api/tryons/:id/garment',
    {
      schema: {
        summary:
          'A small picture of the garment photo one of the session user’s quick previews was made from, while its photos are kept (WEBP; never cached by the browser)',
        description:
          'Another user’s try-on, an unknown id, a try-on that kept no photos or whose 30 minutes are over: 404 NOT_FOUND.',
        tags: ['gallery'],
        security,
        params: TryOnIdParamsSchema,
        response: { 200: IMAGE_RESPONSE, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request, reply) => {
      const body = await garmentThumbnail(
        { db: app.db, vault: app.photoVault, clock: app.clock },
        requireSessionUserId(request),
        request.params.id,
      );
      return reply
        .type('image/webp')
        .header('cache-control', 'private, no-store')
        .header('content-length', body.length)
        .send(Readable.from([body]));
    },
  );
}
