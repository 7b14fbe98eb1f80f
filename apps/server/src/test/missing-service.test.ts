import { describe, expect, it } from 'vitest';
import { isCi, reportMissingService } from './missing-service.js';

const REDIS = {
  problem: 'redis-server is not installed: the queue tests need it',
  remedy: "Install Debian's redis-server package.",
  skipped: 'SKIPPING the queue tests',
};

describe('a missing test service', () => {
  it('counts CI as set unless it is empty, 0 or false', () => {
    expect(isCi({})).toBe(false);
    for (const value of ['', '0', 'false', 'FALSE', ' ']) expect(isCi({ CI: value })).toBe(false);
    for (const value of ['1', 'true', 'yes']) expect(isCi({ CI: value })).toBe(true);
  });

  it('fails on CI, naming the service and how to install it', () => {
    const warnings: string[] = [];
    expect(() => reportMissingService(REDIS, { CI: '1' }, (text) => warnings.push(text))).toThrow(
      "redis-server is not installed: the queue tests need it. On CI these suites must run: Install Debian's redis-server package.",
    );
    expect(warnings).toEqual([]);
  });

  it('warns and lets the caller skip elsewhere', () => {
    const warnings: string[] = [];
    expect(() => reportMissingService(REDIS, {}, (text) => warnings.push(text))).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('redis-server is not installed: the queue tests need it.');
    expect(warnings[0]).toContain('SKIPPING the queue tests');
  });
});
