/** GET /api/results/:name: a result image, by its unguessable name, while its try-on is kept. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { ERROR_RESPONSES, IMAGE_RESPONSE } from '../../http/schemas.js';
import { findByResultName } from '../../repositories/tryons.js';
import { RESULT_NAME_PATTERN } from '../../tryon/results.js';

const ResultParamsSchema = z.object({ name: z.string().regex(RESULT_NAME_PATTERN) });

export default async function resultRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/results/:name',
    {
      schema: {
        summary: 'A result image (by its unguessable name; gone after 30 days)',
        tags: ['tryon'],
        params: ResultParamsSchema,
        response: {
          200: IMAGE_RESPONSE,
          ...ERROR_RESPONSES,
        },
      },
      // A name that is not a result's name is simply not found.
      config: { invalidInput: { otherwise: 'NOT_FOUND' } },
    },
    async (request, reply) => {
      const { name } = request.params;
      const row = await findByResultName(app.db, name);
      if (!row || row.status !== 'succeeded' || row.expires_at <= app.clock().toISOString())
        throw new AppError('NOT_FOUND');
      // Streamed from the store (local disk or S3) after the checks above, never held whole.
      const object = await app.storage.open(`results/${name}`);
      if (!object) throw new AppError('NOT_FOUND');
      const maxAge = Math.max(0, Math.floor((Date.parse(row.expires_at) - app.clock().getTime()) / 1000));
      if (object.size !== undefined) reply.header('content-length', object.size);
      return reply
        .type(object.contentType)
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('content-disposition', `inline; filename="ai-dress-up-${row.id}${name.slice(name.lastIndexOf('.'))}"`)
        .send(object.stream);
    },
  );
}
