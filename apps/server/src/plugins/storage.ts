/**
 * The storage plugin: decorates `app.storage` with the configured provider (or a given one), and
 * `app.photoVault`, the sealed area of it where kept person photos live (encrypted with PHOTO_KEY
 * or a key derived from the session secret; `storage/sealed-store.ts`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { photoKeyNote } from '../config/photos.js';
import { createStorage } from '../storage/create-storage.js';
import { createSealedStore, photoKeyRing, type SealedStore } from '../storage/sealed-store.js';
import type { Storage } from '../storage/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
    /** Kept person photos, sealed (My photos). */
    photoVault: SealedStore;
  }
}

export default fp(
  async function storagePlugin(app: FastifyInstance, opts: { config: Config; storage?: Storage }) {
    const storage = opts.storage ?? createStorage(opts.config);
    app.decorate('storage', storage);
    const ring = photoKeyRing(opts.config.photos, app.sessionSecret);
    app.decorate('photoVault', createSealedStore(storage, ring));
    app.log.debug({ keySource: ring.source, keyId: ring.current.id }, 'kept photos are sealed');
    // In production a missing PHOTO_KEY is said at start: the console's health says it too.
    const note = photoKeyNote(opts.config);
    if (note.warning && opts.config.env === 'production')
      app.log.warn({ keySource: note.source }, `PHOTO_KEY is not set: ${note.warning} (docs/deploy.md)`);
    // A given storage belongs to the caller; the configured one closes with the app.
    if (!opts.storage) app.addHook('onClose', async () => storage.close?.());
  },
  { name: 'storage' },
);
