/**
 * The progress plugin: decorates `app.tryOnProgress`, this process's hub of try-on progress events
 * (`tryon/progress.ts`), which the try-on pipeline and, in queue mode, the queue's event relay
 * publish to and GET /api/tryon-progress/{progressId} streams from. A POST that ends in an error
 * before its try-on reported an end still ends its stream: `failed` is published when the
 * response goes out.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProgressHub, createProgressReporter, type ProgressHubOptions } from '../tryon/progress.js';

export interface ProgressPluginOptions extends ProgressHubOptions {
  /** How long a stream waits for its try-on to be posted (default 2 minutes). */
  waitMs?: number;
  /** How often an idle stream gets a comment line (default 15 s). */
  heartbeatMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    tryOnProgress: ProgressHub;
    tryOnProgressOptions: ProgressPluginOptions;
  }
  interface FastifyRequest {
    /** The progressId a try-on post claimed (set by the try-on route). */
    tryOnProgressId?: string;
  }
}

export default fp(
  async function progressPlugin(app: FastifyInstance, opts: ProgressPluginOptions) {
    const hub = new ProgressHub(opts);
    app.decorate('tryOnProgress', hub);
    app.decorate('tryOnProgressOptions', opts);
    app.decorateRequest('tryOnProgressId', undefined);
    app.addHook('onResponse', async (request, reply) => {
      const progressId = request.tryOnProgressId;
      const userId = request.sessionUserId;
      if (!progressId || !userId || reply.statusCode < 400) return;
      // Dropped by the hub when the pipeline already reported the end.
      createProgressReporter(hub, {
        progressId,
        userId,
        engineId: request.tryOnEngine ?? 'local',
        config: app.config,
        acceptedAt: Date.now() - reply.elapsedTime,
      }).report('failed');
    });
  },
  { name: 'progress' },
);
