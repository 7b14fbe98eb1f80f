/**
 * Pieces of route schemas the routes share: the error answer, and the documentation-only parts of
 * requests the type provider cannot validate (a multipart form, a raw signed body).
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  EngineBusyResponseSchema,
  ErrorResponseSchema,
  GarmentWornResponseSchema,
  NoCreditsResponseSchema,
  TooManyTryOnsResponseSchema,
} from '@aidressup/contract';

/**
 * Every refusal and failure: `{success:false, code, error}`, plus what some codes add (the
 * refused image's field on IMAGE_*, the user on NO_CREDITS). Loose, so nothing a refusal adds is
 * dropped by serialisation.
 */
export const ErrorReplySchema = ErrorResponseSchema.extend({
  /** Which upload the refusal is about (`userImage` or `clothingImage`), on image refusals. */
  field: z.string().optional(),
})
  .loose()
  // One component of the OpenAPI document (#/components/schemas/Error), referenced by every route.
  .meta({ id: 'Error' });

/** The error answers every API route may give (4xx refusals, 5xx failures). */
export const ERROR_RESPONSES = {
  '4xx': ErrorReplySchema,
  '5xx': ErrorReplySchema,
} as const;

/** HTTP 503 of a route whose try-on waits in line: ENGINE_BUSY with the place (or another 5xx refusal). */
const BUSY_RESPONSE = z.union([EngineBusyResponseSchema, ErrorReplySchema]);
/** HTTP 429: TOO_MANY_REQUESTS, the shopper past their places in line (or RATE_LIMITED). */
const TOO_MANY_RESPONSE = z.union([TooManyTryOnsResponseSchema, ErrorReplySchema]);

/**
 * ERROR_RESPONSES plus HTTP 402 NO_CREDITS, which carries the user, HTTP 422, which for
 * GARMENT_WORN may name a hosted engine to try instead (or is another refusal), HTTP 429, which is
 * TOO_MANY_REQUESTS with Retry-After (the shopper past their places in line) or RATE_LIMITED, and
 * HTTP 503, which is ENGINE_BUSY with the shopper's place in line (or another 5xx refusal).
 */
export const TRYON_ERROR_RESPONSES = {
  ...ERROR_RESPONSES,
  402: NoCreditsResponseSchema,
  422: z.union([GarmentWornResponseSchema, ErrorReplySchema]),
  429: TOO_MANY_RESPONSE,
  503: BUSY_RESPONSE,
} as const;

/** ERROR_RESPONSES plus HTTP 429 TOO_MANY_REQUESTS and 503 ENGINE_BUSY with the place: the shop widget's try-on. */
export const EMBED_TRYON_ERROR_RESPONSES = { ...ERROR_RESPONSES, 429: TOO_MANY_RESPONSE, 503: BUSY_RESPONSE } as const;

/** A file part of a multipart form, for the OpenAPI document. */
export const BinaryFile = z.string().meta({ format: 'binary' });

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Documentation only: request parts the route reads itself (a multipart form, a raw body),
     * so they cannot be validated by the schema compiler. The OpenAPI document shows them as the
     * request body and headers; nothing checks a request against them.
     */
    documented?: { body?: z.ZodType; headers?: z.ZodType };
  }
}

/** A result image's bytes, streamed from storage (the serializer never sees them). */
const StreamedImage = {
  schema: z.custom<Readable>((v) => v instanceof Readable).meta({ type: 'string', format: 'binary' }),
};

/** The 200 answer of a route that streams a result image. */
export const IMAGE_RESPONSE = {
  description: 'The image',
  content: { 'image/jpeg': StreamedImage, 'image/png': StreamedImage, 'image/webp': StreamedImage },
};
