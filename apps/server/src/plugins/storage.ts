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
    app.decorate('storage', opts.storage ?? createStorage(opts.config));
  },
  { name: 'storage' },
);
