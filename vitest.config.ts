import os from 'node:os';
import { defineConfig, defaultClientConditions, defaultServerConditions } from 'vite';
import { catalogs } from './apps/web/vite-catalogs';

/**
 * One test run for every workspace. Workspace packages resolve to their TypeScript
 * source through the `source` export condition, so tests need no build.
 */
export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // Server code runs on plain Node, which knows no `module` condition: without it here too, packages
  // whose `module` export is a bundler-only ESM build (the AWS SDK's) load as they do in production.
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
      externalConditions: ['source'],
    },
  },
  test: {
    // Vitest's default is a worker fewer than the cores: one on a 2-core machine, where most of the
    // server's suites wait on PostgreSQL, Redis, child processes and sockets rather than compute.
    // Every suite has its own databases, folders and ports, so two run side by side.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'tools', include: ['tools/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'engine',
          include: ['packages/engine/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/postgres.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        plugins: [catalogs()],
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/i18n/test-setup.ts'],
        },
      },
    ],
  },
});
