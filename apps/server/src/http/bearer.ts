/** `Authorization: Bearer <token>`: the token, or undefined (the widget's calls and the merchant's usage call). */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The origins our own pages are served from: PUBLIC_URL (else the host the request was sent to)
 * and CORS_ORIGIN. The widget's frame calls from one of them.
 */
export function ownOrigins(request: FastifyRequest, config: Config): string[] {
  const own = config.publicUrl
    ? new URL(config.publicUrl).origin
    : URL.canParse(`${request.protocol}://${request.headers.host ?? ''}`)
      ? new URL(`${request.protocol}://${request.headers.host ?? ''}`).origin
      : undefined;
  return [own, config.corsOrigin ? new URL(config.corsOrigin).origin : undefined].filter(
    (o): o is string => o !== undefined,
  );
}
