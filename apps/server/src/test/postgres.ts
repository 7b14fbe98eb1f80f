/**
 * Vitest global setup for the `server` project: starts a throwaway PostgreSQL cluster in a
 * temporary directory on a free port for the test run, and stops it at the end.
 * Tests get its URL with `inject('postgresUrl')` (null when PostgreSQL is not installed:
 * then the PostgreSQL suites do not run, loudly, unless CI is set, which makes it an error:
 * `missing-service.ts`).
 */
import type { TestProject } from 'vitest/node';
import { reportMissingService } from './missing-service.js';
import { postgresBinDir, startPostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const bin = postgresBinDir();
  if (!bin) {
    reportMissingService({
      problem: 'PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: the PostgreSQL test suites cannot run',
      remedy: "Install Debian's postgresql package to test both databases.",
      skipped: 'Only SQLite is tested in this run',
    });
    project.provide('postgresUrl', null);
    return;
  }
  const cluster = await startPostgresCluster(bin, { maxConnections: 200 });
  project.provide('postgresUrl', cluster.url);
  return async () => cluster.stop();
}
