/** The storage plugin: decorates `app.storage` with the configured provider (or a given one). */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { createStorage } from '../storage/create-storage.js';
import type { Storage } from '../storage/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export default fp(
  async function storagePlugin(app: FastifyInstance, opts: { config: Config; storage?: Storage }) {
    const storage = opts.storage ?? createStorage(opts.config);
    app.decorate('storage', storage);
    // A given storage belongs to the caller; the configured one closes with the app.
    if (!opts.storage) app.addHook('onClose', async () => storage.close?.());
  },
  { name: 'storage' },
);
