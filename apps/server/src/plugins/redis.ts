/**
 * The redis plugin: with REDIS_URL, decorates `app.redis` with a shared connection for state the
 * API instances must share (rate limits, the retention lock); without it `app.redis` is undefined
 * and ioredis is never loaded.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { closeRedis, connectRedis, type Redis } from '../redis/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | undefined;
  }
}

export default fp(
  async function redisPlugin(app: FastifyInstance) {
    const url = app.config.redisUrl;
    if (!url) {
      app.decorate('redis', undefined);
      return;
    }
    const client = await connectRedis(url);
    app.decorate('redis', client);
    app.addHook('onClose', async () => closeRedis(client));
  },
  { name: 'redis' },
);
