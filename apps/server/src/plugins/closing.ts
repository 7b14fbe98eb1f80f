/**
 * Closing gracefully (SIGTERM, `server.ts`): from the moment the app starts closing, every answer
 * carries `Connection: close`, and connections that fall idle (a progress stream ended, an answer
 * sent before) are closed every quarter second, so no kept-alive connection holds the server open
 * until its idle timeout (new requests are answered 503 by Fastify meanwhile). The try-ons under way get SHUTDOWN_GRACE_MS (`plugins/tryon.ts`); five seconds past
 * it, whatever connection is still open (a body still trickling in) is cut.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** After the try-ons' grace, how long other requests may still take before their connections are cut. */
export const CUT_CONNECTIONS_AFTER_GRACE_MS = 5_000;

export default fp(
  async function closingPlugin(app: FastifyInstance) {
    let closing = false;
    let cut: NodeJS.Timeout | undefined;
    let idle: NodeJS.Timeout | undefined;
    app.addHook('preClose', async () => {
      closing = true;
      idle = setInterval(() => app.server.closeIdleConnections(), 250);
      idle.unref();
      cut = setTimeout(
        () => app.server.closeAllConnections(),
        app.config.shutdownGraceMs + CUT_CONNECTIONS_AFTER_GRACE_MS,
      );
      cut.unref();
    });
    app.addHook('onClose', async () => {
      clearTimeout(cut);
      clearInterval(idle);
    });
    app.addHook('onSend', async (_request, reply) => {
      if (closing) reply.header('connection', 'close');
    });
  },
  { name: 'closing' },
);
