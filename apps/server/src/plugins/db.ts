/**
 * The database plugin: opens SQLite or PostgreSQL (migrating it to the latest schema), decorates
 * `app.db` and `app.dbKind`, and closes on shutdown. (Try-ons a crash left `processing` are settled
 * by the recovery plugin.)
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { openDatabase, type DatabaseKind } from '../db/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbKind: DatabaseKind;
  }
}

export default fp(
  async function dbPlugin(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    app.decorate('db', database.db);
    app.decorate('dbKind', database.kind);
    app.addHook('onClose', async () => {
      await database.close();
    });
  },
  { name: 'db' },
);
