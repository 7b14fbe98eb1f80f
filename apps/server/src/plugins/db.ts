/**
 * The database plugin: opens SQLite or PostgreSQL (migrating it to the latest schema), decorates
 * `app.db` and `app.dbKind`, refunds try-ons a crash left `processing`, and closes on shutdown.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { openDatabase, type DatabaseKind } from '../db/database.js';
import { refundStuckTryOns } from '../ledger/ledger.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbKind: DatabaseKind;
  }
}

export default fp(
  async function dbPlugin(app: FastifyInstance, opts: { config: Config; clock: () => Date }) {
    const { config } = opts;
    const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    app.decorate('db', database.db);
    app.decorate('dbKind', database.kind);
    app.addHook('onClose', async () => {
      await database.close();
    });

    // After a crash: try-ons left processing past the engine deadline are failed and refunded.
    const now = opts.clock();
    const refunded = await refundStuckTryOns(database.db, new Date(now.getTime() - config.engines.deadlineMs), now);
    if (refunded > 0) app.log.warn({ refunded }, 'refunded try-ons interrupted by a restart');
  },
  { name: 'db' },
);
