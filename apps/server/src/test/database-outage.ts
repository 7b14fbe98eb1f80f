/**
 * A database that goes away on demand, for tests of what waits for it: a Kysely plugin that,
 * while `down` is set, fails every statement as PostgreSQL's pool does while its server restarts
 * (the connection refused). `db.withPlugin(outage)` gives the handle the code under test uses.
 */
import type { KyselyPlugin } from 'kysely';

export interface DatabaseOutage extends KyselyPlugin {
  down: boolean;
}

export function databaseOutage(): DatabaseOutage {
  return {
    down: false,
    transformQuery(args) {
      if (this.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}
