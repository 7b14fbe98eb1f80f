/**
 * POST /api/garments/classify: a suggested category for a garment photo (multipart, one file
 * field `clothingImage`), so the page can preselect it. Free: no credit or trial is used and
 * nothing is stored; the photo stays in memory.
 *
 * - Session required (401 without one); limited per address and per user at three times the
 *   try-on rate (the page asks once per garment photo chosen).
 * - The photo goes through the try-on's upload checks (10 MB, JPEG/PNG/WEBP by its bytes,
 *   decodable, 40 megapixels), is decoded straight to RGBA at a modest size and handed to the
 *   engine's `classifyGarment` (a transparent PNG's alpha is the cut-out).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  GARMENT_CLASSIFY_FILE_FIELD,
  GarmentClassifyResponseSchema,
  MAX_UPLOAD_BYTES,
  MESSAGES,
} from '@aidressup/contract';
import { classifyGarment } from '@aidressup/engine';
import { AppError } from '../errors.js';
import { readMultipart } from '../http/multipart-form.js';
import { requireSessionUserId } from '../http/session.js';
import { validateAndDecodeRgba, type Upload } from '../services/images.js';
import { BinaryFile, ERROR_RESPONSES } from '../http/schemas.js';

/** The classifier looks at about 256 pixels; decoding at twice that keeps its box filter fed, cheaply. */
const CLASSIFY_DECODE_SIDE = 512;

/** The multipart form as the OpenAPI document shows it (the route reads and checks it itself). */
const ClassifyFormSchema = z.object({
  [GARMENT_CLASSIFY_FILE_FIELD]: BinaryFile.describe('The clothing photo: JPG, PNG or WEBP, at most 10 MB'),
});

/** The one garment photo of the form; text fields are ignored, any other file is refused. */
function readGarmentPhoto(request: FastifyRequest): Promise<Upload | undefined> {
  return readMultipart(request, MESSAGES.missingClothingImage, async () => {
    let photo: Upload | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== GARMENT_CLASSIFY_FILE_FIELD || photo) {
        part.file.resume();
        throw new AppError('VALIDATION_ERROR', MESSAGES.unexpectedParts);
      }
      photo = { data: await part.toBuffer(), declared: { type: part.mimetype, name: part.filename } };
    }
    return photo;
  });
}

export default async function garmentRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  app.post(
    '/api/garments/classify',
    {
      onRequest: app.perRouteLimit('classify', config.rateLimits.tryOnPerMinute * 3),
      schema: {
        summary: 'Suggest the clothing category of a garment photo (free; nothing is stored)',
        tags: ['tryon'],
        security: [{ session: [] }],
        consumes: ['multipart/form-data'],
        // Multipart: the route reads the one file part itself.
        documented: { body: ClassifyFormSchema },
        response: { 200: GarmentClassifyResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      requireSessionUserId(request);
      const photo = await readGarmentPhoto(request);
      if (!photo) throw new AppError('MISSING_FILE', MESSAGES.missingClothingImage);
      const image = await validateAndDecodeRgba(photo, GARMENT_CLASSIFY_FILE_FIELD, CLASSIFY_DECODE_SIDE);
      // Without an alpha channel there is no cut-out to use; with one, the classifier looks for
      // transparent pixels itself (an opaque PNG with an alpha channel is a plain photo).
      const result = classifyGarment(image, image.hasAlpha ? {} : { hasAlpha: false });
      return {
        success: true as const,
        category: result.category,
        confidence: Math.round(result.confidence * 1000) / 1000,
      };
    },
  );
}
