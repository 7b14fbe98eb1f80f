/**
 * What a test suite does when a service it needs (PostgreSQL, redis-server) is not installed:
 * on CI it fails, since a suite that quietly skips there proves nothing; on a developer's machine
 * it says so loudly and the caller skips it.
 */

/** Whether this run is CI: `CI` set to anything but empty, `0` or `false` (`.ci/run` sets `CI=1`). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export interface MissingService {
  /** What is missing and which suites need it, e.g. "redis-server is not installed: the queue tests need it". */
  problem: string;
  /** How to install it, e.g. "Install Debian's redis-server package." */
  remedy: string;
  /** What this run does without it, e.g. "SKIPPING the queue tests". */
  skipped: string;
}

/**
 * Reports a missing service. On CI, throws an error naming it and how to install it; elsewhere
 * prints a warning (to `warn`, default `console.warn`) and returns, and the caller skips.
 */
export function reportMissingService(
  service: MissingService,
  env: NodeJS.ProcessEnv = process.env,
  warn: (text: string) => void = console.warn,
): void {
  if (isCi(env)) throw new Error(`${service.problem}. On CI these suites must run: ${service.remedy}`);
  const rule = '!'.repeat(100);
  warn(`\n${rule}\n!! ${service.problem}.\n!! ${service.skipped}. ${service.remedy}\n${rule}\n`);
}
