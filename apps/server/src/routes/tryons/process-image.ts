/**
 * POST /api/process-image: a synchronous try-on, two photos in (or three for a whole outfit), the
 * result's URL out. The route reads and checks the form; the try-on itself is `app.tryOns`
 * (`tryon/pipeline.ts`). Uploads stay in memory; they are never written to disk, let alone under a
 * client file name.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  MAX_UPLOAD_BYTES,
  MESSAGES,
  TryOnFieldsSchema,
  TryOnResponseSchema,
  type TryOnFields,
} from '@aidressup/contract';
import { AppError } from '../../errors.js';
import { readMultipart } from '../../http/multipart-form.js';
import { watchClientGone } from '../../http/client-gone.js';
import { loadSessionUser, requireSessionUserId } from '../../http/session.js';
import { BinaryFile, TRYON_ERROR_RESPONSES } from '../../http/schemas.js';
import { MIN_SIDE, validateAndNormalise, type Upload } from '../../services/images.js';
import type { Admission } from '../../tryon/line/admission.js';
import { tryOnsFor } from '../../tryon/pipeline.js';
import { useKeptPhoto, type KeptPerson } from '../../services/my-photos.js';

const FILE_FIELDS = ['userImage', 'clothingImage', 'lowerClothingImage'] as const;
type FileField = (typeof FILE_FIELDS)[number];
/** The form's text fields (TryOnFieldsSchema's); other text fields are ignored. */
const TEXT_FIELDS = Object.keys(TryOnFieldsSchema.shape);

/** The multipart form as the OpenAPI document shows it (the route reads and checks it itself). */
const TryOnFormSchema = z.object({
  userImage: BinaryFile.optional().describe(
    'The person photo: JPG, PNG or WEBP, at most 10 MB. Or, instead of it, `personPhotoId`: one of the shopper’s kept photos (GET /api/photos); both given: 400',
  ),
  clothingImage: BinaryFile.describe('The clothing photo: JPG, PNG or WEBP, at most 10 MB'),
  lowerClothingImage: BinaryFile.optional().describe(
    'Optional, with category upper_body only: a bottom (trousers, jeans, a skirt) for a whole outfit, dressed under the top. JPG, PNG or WEBP, at most 10 MB. A whole outfit uses two try-ons (free trials first, then credits).',
  ),
  ...TryOnFieldsSchema.shape,
});

interface ParsedForm {
  files: Partial<Record<FileField, Upload>>;
  fields: Record<string, string>;
}

function readForm(request: FastifyRequest): Promise<ParsedForm> {
  return readMultipart(request, MESSAGES.uploadBothPhotos, () => readParts(request));
}

async function readParts(request: FastifyRequest): Promise<ParsedForm> {
  const form: ParsedForm = { files: {}, fields: {} };
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const field = part.fieldname as FileField;
      if (!FILE_FIELDS.includes(field) || form.files[field]) {
        part.file.resume();
        throw new AppError('VALIDATION_ERROR', MESSAGES.unexpectedParts);
      }
      form.files[field] = { data: await part.toBuffer(), declared: { type: part.mimetype, name: part.filename } };
    } else {
      if (!(TEXT_FIELDS as readonly string[]).includes(part.fieldname)) continue;
      if (part.valueTruncated || typeof part.value !== 'string') throw new AppError('VALIDATION_ERROR');
      form.fields[part.fieldname] = part.value;
    }
  }
  return form;
}

/**
 * The form's text fields, checked with the contract's TryOnFieldsSchema. An empty field counts as
 * absent (an empty `api` means the default engine). Refusals, in this order: another user's id →
 * FORBIDDEN; no user id → VALIDATION_ERROR; a bad category → INVALID_CATEGORY; a bad engine name
 * → ENGINE_UNAVAILABLE; anything else (a progress id that is not a UUID) → VALIDATION_ERROR.
 */
function checkFields(fields: Record<string, string>, sessionUser: string): TryOnFields {
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
  const parsed = TryOnFieldsSchema.safeParse(present);
  const failed = new Set(parsed.error?.issues.map((issue) => String(issue.path[0] ?? '')));
  if (present.userId !== undefined && present.userId !== sessionUser) throw new AppError('FORBIDDEN');
  if (failed.has('userId')) throw new AppError('VALIDATION_ERROR');
  if (failed.has('category')) throw new AppError('INVALID_CATEGORY');
  if (failed.has('api')) throw new AppError('ENGINE_UNAVAILABLE');
  if (!parsed.success) throw new AppError('VALIDATION_ERROR');
  return parsed.data;
}

export default async function processImageRoute(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const security = [{ session: [] }];
  await app.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
      files: FILE_FIELDS.length,
      fields: 8,
      fieldSize: 1024,
      parts: 12,
      headerPairs: 50,
    },
    throwFileSizeLimit: true,
  });

  app.post(
    '/api/process-image',
    {
      onRequest: app.perRouteLimit('tryon', config.rateLimits.tryOnPerMinute),
      schema: {
        summary:
          'Try a garment on a person: two photos in, the result’s URL out (charges a free trial or a credit on success); with lowerClothingImage, a whole outfit (two)',
        tags: ['tryon'],
        security,
        consumes: ['multipart/form-data'],
        // Multipart: the route reads the parts itself and checks the text fields with TryOnFieldsSchema.
        documented: { body: TryOnFormSchema },
        response: { 200: TryOnResponseSchema, ...TRYON_ERROR_RESPONSES },
      },
      // The database or Redis away for a moment: 503 SERVICE_UNAVAILABLE, nothing charged.
      config: { outageMessage: MESSAGES.tryOnOutage },
    },
    async (request, reply) => {
      const acceptedAt = Date.now();
      const sessionUser = requireSessionUserId(request);
      const { files, fields } = await readForm(request);

      if (files.userImage && fields.personPhotoId) throw new AppError('VALIDATION_ERROR', MESSAGES.personPhotoTwice);
      if (!files.userImage && !fields.personPhotoId) throw new AppError('MISSING_FILE', MESSAGES.missingPersonImage);
      if (!files.clothingImage) throw new AppError('MISSING_FILE', MESSAGES.missingClothingImage);
      const form = checkFields(fields, sessionUser);
      // A bottom goes under a top: a whole outfit is an Upper Body try-on.
      if (files.lowerClothingImage && form.category !== 'upper_body')
        throw new AppError('VALIDATION_ERROR', MESSAGES.lowerClothingNeedsUpperBody);
      const outfit = files.lowerClothingImage !== undefined;
      // The progressId is bound to the user who posts it; someone else's is ignored.
      const progressId =
        form.progressId && app.tryOnProgress.claim(form.progressId, sessionUser) ? form.progressId : undefined;
      request.tryOnProgressId = progressId;
      const engineId = form.api ?? app.engines.defaultEngine;
      if (!app.engines.has(engineId)) throw new AppError('ENGINE_UNAVAILABLE');
      request.tryOnEngine = engineId;
      // Only once the form is known to be a valid one: the session's user must still exist.
      await loadSessionUser(app, request);
      // A kept photo (My photos): the session user's own, else 404; checked when it was kept.
      const kept: KeptPerson | undefined = form.personPhotoId
        ? await useKeptPhoto(
            { db: app.db, vault: app.photoVault, clock: app.clock, log: request.log },
            sessionUser,
            form.personPhotoId,
          )
        : undefined;
      // The shopper who goes away (cancels, closes the page, the page times out) gives up the
      // place and is charged nothing: watched from before the place is taken.
      const gone = watchClientGone(request, reply);
      let admission: Admission | undefined;
      try {
        // Cheap refusals first: a category the engine does not offer, no credits, or the line is
        // full (no decoding, no charge). Otherwise a place in line, kept while the photos are decoded.
        admission = await app.tryOns.refuseEarly(sessionUser, engineId, tryOnsFor(outfit), {
          category: form.category,
          ticket: form.lineTicket,
          address: request.ip,
        });
        // Every photo check (a real image, its size) comes before the reservation: none is charged.
        const [person, garment, lowerGarment] = await Promise.all([
          kept?.image ?? validateAndNormalise(files.userImage!, 'userImage', MIN_SIDE.person),
          validateAndNormalise(files.clothingImage, 'clothingImage', MIN_SIDE.garment),
          files.lowerClothingImage
            ? validateAndNormalise(files.lowerClothingImage, 'lowerClothingImage', MIN_SIDE.garment)
            : undefined,
        ]);
        // Free the raw uploads before the engine runs.
        files.userImage = undefined;
        files.clothingImage = undefined;
        files.lowerClothingImage = undefined;

        return await app.tryOns.perform({
          userId: sessionUser,
          category: form.category,
          engineId,
          person,
          garment,
          lowerGarment,
          keptPerson: kept ? { photoId: kept.photoId, analysis: kept.analysis } : undefined,
          progressId,
          reqId: request.id,
          acceptedAt,
          admission,
          signal: gone.signal,
        });
      } finally {
        gone.stop();
        await admission?.leave();
      }
    },
  );
}
