/**
 * A try-on's shopper who goes away: the connection closes before the answer is sent (the page's
 * "Leave the line", a closed tab, the page's own timeout). Every try-on route (a try-on, a whole
 * outfit, "Make it photo-real", the shop widget) watches for it from before it takes a place in
 * line, so that the place is given up and nothing is charged (`tryon/pipeline.ts`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface ClientGone {
  /** Aborts when the client has gone. */
  readonly signal: AbortSignal;
  /** Stops watching (the answer is settled). */
  stop(): void;
}

export function watchClientGone(request: FastifyRequest, reply: FastifyReply): ClientGone {
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  reply.raw.once('close', onClose);
  // Gone already, before anyone listened (while the body was being read): at once.
  if (reply.raw.destroyed || request.raw.socket?.destroyed === true) onClose();
  return {
    signal: gone.signal,
    stop: () => reply.raw.off('close', onClose),
  };
}
