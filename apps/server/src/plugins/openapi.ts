/**
 * The OpenAPI 3 document, generated from the routes' zod schemas (`@fastify/swagger` with the
 * zod type provider's transform) and served as JSON at GET /api/openapi.json. Only /api routes
 * are documented (not /metrics, not the web app's pages). No documentation UI is served.
 *
 * Registered before every route, so it sees them all; it also keeps the list of registered
 * routes (`app.registeredRoutes`), which the document's test compares against.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import { createJsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VERSION } from '../version.js';
import { ERROR_RESPONSES } from '../http/schemas.js';

const OPENAPI_PATH = '/api/openapi.json';

interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after this plugin (method and URL as written, e.g. `/api/results/:name`). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/** Documents /api routes only; a route's `documented` parts stand in for what it reads itself. */
const transform: SwaggerTransform = (input) => {
  if (!input.url.startsWith('/api/')) return { schema: { hide: true }, url: input.url };
  const { documented, ...schema } = input.schema ?? {};
  const withDocumented: FastifySchema = {
    ...schema,
    ...(documented?.body ? { body: documented.body } : {}),
    ...(documented?.headers ? { headers: documented.headers } : {}),
  };
  return zodTransform({ ...input, schema: withDocumented });
};

/** The document's shape as far as the route promises it; the rest passes through unchanged. */
const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export default fp(
  async function openapiPlugin(app: FastifyInstance) {
    const routes: RegisteredRoute[] = [];
    app.decorate('registeredRoutes', routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'AI Dress Up API',
          version: VERSION,
          description:
            'Virtual clothing try-on. Every refusal is `{success:false, code, error}` with the HTTP status of its code; ' +
            '`error` is a message safe to show. The session is an HttpOnly cookie set by the sign-in calls.',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'aidu_session' },
            // The shop widget (docs/embed.md): a shopper's embed session, a merchant's secret key.
            embedToken: { type: 'http', scheme: 'bearer' },
            merchantSecretKey: { type: 'http', scheme: 'bearer' },
          },
        },
      },
      transform,
      // Schemas registered with an id (the error answer) become components, referenced by $ref.
      transformObject: jsonSchemaTransformObject,
    });

    app.withTypeProvider<ZodTypeProvider>().get(
      OPENAPI_PATH,
      {
        schema: {
          summary: 'This OpenAPI 3 document',
          tags: ['meta'],
          response: { 200: OpenApiDocumentSchema, ...ERROR_RESPONSES },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return app.swagger() as z.output<typeof OpenApiDocumentSchema>;
      },
    );
  },
  { name: 'openapi' },
);
