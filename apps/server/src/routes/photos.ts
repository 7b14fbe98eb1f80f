/**
 * My photos (contract photos.ts): GET /api/photos, POST /api/photos (multipart `photo`), DELETE
 * /api/photos/:id and GET /api/photos/:id/thumbnail, for the session's user only. The work is
 * `services/my-photos.ts`; no other route (no operator route either) serves a kept photo.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  DeletePhotoResponseSchema,
  KeepPhotoResponseSchema,
  ListPhotosResponseSchema,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  PhotoIdParamsSchema,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { readMultipart } from '../http/multipart-form.js';
import { requireSessionUserId } from '../http/session.js';
import { BinaryFile, ERROR_RESPONSES, IMAGE_RESPONSE } from '../http/schemas.js';
import { deletePhoto, keepPhoto, listPhotos, photoThumbnail, type MyPhotosDeps } from '../services/my-photos.js';

const PHOTO_FIELD = 'photo';

const KeepPhotoFormSchema = z.object({
  [PHOTO_FIELD]: BinaryFile.describe('The person photo to keep: JPG, PNG or WEBP, at most 10 MB'),
});

/** The one photo of the form; text fields are ignored, any other file is refused. */
function readPhoto(request: FastifyRequest): Promise<Buffer | undefined> {
  return readMultipart(request, MESSAGES.missingKeptPhoto, async () => {
    let photo: Buffer | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== PHOTO_FIELD || photo) {
        part.file.resume();
        throw new AppError('VALIDATION_ERROR', MESSAGES.unexpectedParts);
      }
      photo = await part.toBuffer();
    }
    return photo;
  });
}

export default async function photoRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const security = [{ session: [] }];
  const deps = (): MyPhotosDeps => ({
    db: app.db,
    vault: app.photoVault,
    clock: app.clock,
    log: app.log,
    engines: app.engines,
  });
  // Another user's photo, an unknown one, or an id that is not one: all simply not found.
  const idRoute = { invalidInput: { otherwise: 'NOT_FOUND' as const } };
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  app.get(
    '/api/photos',
    {
      schema: {
        summary: 'The session user’s kept person photos (My photos), most recently used first',
        tags: ['photos'],
        security,
        response: { 200: ListPhotosResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const userId = requireSessionUserId(request);
      return { success: true as const, photos: await listPhotos(deps(), userId) };
    },
  );

  app.post(
    '/api/photos',
    {
      onRequest: app.perRouteLimit('photos', config.rateLimits.tryOnPerMinute),
      schema: {
        summary: 'Keep a person photo for later try-ons (at most 3; encrypted at rest)',
        description:
          'The try-on’s upload checks, then the built-in engine’s person check, once: a photo in which no single person is found is refused (422 PERSON_NOT_FOUND, MULTIPLE_PEOPLE or PERSON_TOO_SMALL) and not kept. 409 PHOTO_LIMIT when 3 are kept already.',
        tags: ['photos'],
        security,
        consumes: ['multipart/form-data'],
        // Multipart: the route reads the one file part itself.
        documented: { body: KeepPhotoFormSchema },
        response: { 200: KeepPhotoResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const userId = requireSessionUserId(request);
      const bytes = await readPhoto(request);
      if (!bytes) throw new AppError('MISSING_FILE', MESSAGES.missingKeptPhoto);
      const photo = await keepPhoto(deps(), userId, bytes);
      request.log.info({ photoId: photo.id }, 'person photo kept');
      return { success: true as const, photo };
    },
  );

  app.delete(
    '/api/photos/:id',
    {
      schema: {
        summary: 'Delete one of the session user’s kept photos, with its files',
        description: 'Another user’s photo or an unknown id: 404 NOT_FOUND.',
        tags: ['photos'],
        security,
        params: PhotoIdParamsSchema,
        response: { 200: DeletePhotoResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => {
      await deletePhoto(deps(), requireSessionUserId(request), request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    '/api/photos/:id/thumbnail',
    {
      schema: {
        summary: 'A small picture of one of the session user’s kept photos (JPEG; never cached by the browser)',
        description: 'Another user’s photo or an unknown id: 404 NOT_FOUND.',
        tags: ['photos'],
        security,
        params: PhotoIdParamsSchema,
        response: { 200: IMAGE_RESPONSE, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request, reply) => {
      const body = await photoThumbnail(deps(), requireSessionUserId(request), request.params.id);
      return reply
        .type('image/jpeg')
        .header('cache-control', 'private, no-store')
        .header('content-length', body.length)
        .send(Readable.from([body]));
    },
  );
}
