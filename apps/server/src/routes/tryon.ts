/**
 * POST /api/process-image, GET /api/results/:name and GET /api/tryons.
 * Uploads stay in memory; they are never written to disk, let alone under a client file name.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  CATEGORY_VALUES,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  ProgressIdSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
  type Category,
} from '@aidressup/contract';
import { AppError, isAppError } from '../errors.js';
import { requireSessionUserId } from '../plugins/session.js';
import { findUserById } from '../repositories/users.js';
import { findByResultName, listResultsForUser } from '../repositories/tryons.js';
import { validateAndNormalise } from '../services/images.js';
import { RESULT_NAME_PATTERN, performTryOn, refuseEarly, type TryOnDeps } from '../services/tryon.js';

const FILE_FIELDS = ['userImage', 'clothingImage'] as const;
type FileField = (typeof FILE_FIELDS)[number];
const TEXT_FIELDS = ['category', 'userId', 'api', 'progressId'] as const;

interface ParsedForm {
  files: Partial<Record<FileField, Buffer>>;
  fields: Record<string, string>;
}

/** multipart/form-data with a boundary parameter (busboy throws a plain Error without one). */
const MULTIPART_WITH_BOUNDARY = /^multipart\/form-data\s*;(.*;)?\s*boundary=("[^"]+"|[^;\s]+)/i;

async function readForm(request: FastifyRequest): Promise<ParsedForm> {
  if (!request.isMultipart()) throw new AppError('MISSING_FILE', MESSAGES.uploadBothPhotos);
  if (!MULTIPART_WITH_BOUNDARY.test(request.headers['content-type'] ?? '')) throw new AppError('MALFORMED_UPLOAD');
  try {
    return await readParts(request);
  } catch (err) {
    // Our refusals and the parser's limits (FST_*) keep their codes; anything else the parser
    // throws (cut off mid-file, a broken part header) is a malformed upload, not a server fault.
    if (isAppError(err) || (typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('FST_'))) throw err;
    throw new AppError('MALFORMED_UPLOAD');
  }
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
      form.files[field] = await part.toBuffer();
    } else {
      if (!(TEXT_FIELDS as readonly string[]).includes(part.fieldname)) continue;
      if (part.valueTruncated || typeof part.value !== 'string') throw new AppError('VALIDATION_ERROR');
      form.fields[part.fieldname] = part.value;
    }
  }
  return form;
}

export default async function tryOnRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 8, fieldSize: 1024, parts: 12, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  const deps = (): TryOnDeps => ({
    db: app.db,
    config,
    clock: app.clock,
    log: app.log,
    runner: app.tryOnRunner,
    progress: app.tryOnProgress,
    processId: app.processId,
  });

  app.post(
    '/api/process-image',
    { onRequest: app.perRouteLimit('tryon', config.rateLimits.tryOnPerMinute) },
    async (request) => {
      const acceptedAt = Date.now();
      const sessionUser = requireSessionUserId(request);
      const { files, fields } = await readForm(request);

      if (!files.userImage) throw new AppError('MISSING_FILE', MESSAGES.missingPersonImage);
      if (!files.clothingImage) throw new AppError('MISSING_FILE', MESSAGES.missingClothingImage);
      if (!fields.userId) throw new AppError('VALIDATION_ERROR');
      if (fields.userId !== sessionUser) throw new AppError('FORBIDDEN');
      if (fields.progressId !== undefined && !ProgressIdSchema.safeParse(fields.progressId).success) throw new AppError('VALIDATION_ERROR');
      // The progressId is bound to the user who posts it; someone else's is ignored.
      const progressId = fields.progressId && app.tryOnProgress.claim(fields.progressId, sessionUser) ? fields.progressId : undefined;
      request.tryOnProgressId = progressId;
      if (!(CATEGORY_VALUES as readonly string[]).includes(fields.category ?? '')) throw new AppError('INVALID_CATEGORY');
      const engineId = fields.api && fields.api.length > 0 ? fields.api : app.engines.defaultEngine;
      if (!app.engines.has(engineId)) throw new AppError('ENGINE_UNAVAILABLE');
      request.tryOnEngine = engineId;
      if (!(await findUserById(app.db, sessionUser))) throw new AppError('UNAUTHORIZED');
      // Cheap refusals first: no credits, or no room to wait for the engine (no decoding, no charge).
      await refuseEarly(deps(), sessionUser, engineId);

      const [person, garment] = await Promise.all([
        validateAndNormalise(files.userImage, 'userImage'),
        validateAndNormalise(files.clothingImage, 'clothingImage'),
      ]);
      // Free the raw uploads before the engine runs.
      files.userImage = undefined;
      files.clothingImage = undefined;

      const result = await performTryOn(deps(), {
        userId: sessionUser,
        category: fields.category as Category,
        engineId,
        person,
        garment,
        progressId,
        reqId: request.id,
        acceptedAt,
      });
      return TryOnResponseSchema.parse(result);
    },
  );

  app.get('/api/results/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!RESULT_NAME_PATTERN.test(name)) throw new AppError('NOT_FOUND');
    const row = await findByResultName(app.db, name);
    if (!row || row.status !== 'succeeded' || row.expires_at <= app.clock().toISOString()) throw new AppError('NOT_FOUND');
    const object = await app.storage.get(`results/${name}`);
    if (!object) throw new AppError('NOT_FOUND');
    const maxAge = Math.max(0, Math.floor((Date.parse(row.expires_at) - app.clock().getTime()) / 1000));
    return reply
      .type(object.contentType)
      .header('cache-control', `private, max-age=${maxAge}, immutable`)
      .header('content-disposition', `inline; filename="ai-dress-up-${row.id}${name.slice(name.lastIndexOf('.'))}"`)
      .send(object.body);
  });

  app.get('/api/tryons', async (request) => {
    const userId = requireSessionUserId(request);
    const rows = await listResultsForUser(app.db, userId, app.clock());
    return TryOnListResponseSchema.parse({
      success: true,
      items: rows.map((r) => ({
        id: r.id,
        imageUrl: `/api/results/${r.result_name}`,
        category: r.category,
        engine: r.engine,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      })),
    });
  });
}
