/** Logs carry a keyed hash of the client address, never the address. */
import { describe, expect, it } from 'vitest';
import { testApps } from '../test/app.js';
import { logAddressHash } from '../app.js';

const make = testApps('sqlite');

describe('request logs', () => {
  it('log a keyed hash of the client address, the same for the same address, and never the address', async () => {
    const lines: string[] = [];
    const t = await make({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (l) => void lines.push(l) },
    });
    for (const ip of ['198.51.100.77', '198.51.100.77', '2001:db8::1234']) {
      await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: ip });
    }
    await t.app.inject({ method: 'GET', url: '/api/nothing', remoteAddress: '198.51.100.77' });
    const all = lines.join('');
    expect(all).not.toContain('198.51.100.77');
    expect(all).not.toContain('2001:db8::1234');
    const incoming = lines
      .map((l) => JSON.parse(l) as { msg: string; req?: { remoteAddress: string } })
      .filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.remoteAddress)).toEqual([
      logAddressHash('198.51.100.77', t.app.sessionSecret),
      logAddressHash('198.51.100.77', t.app.sessionSecret),
      logAddressHash('2001:db8::1234', t.app.sessionSecret),
      logAddressHash('198.51.100.77', t.app.sessionSecret),
    ]);
    expect(incoming[0]!.req!.remoteAddress).toMatch(/^ip_[A-Za-z0-9_-]{16}$/);
    // Keyed: another secret gives another hash (not a plain hash anyone can reverse by trying addresses).
    expect(logAddressHash('198.51.100.77', 'x'.repeat(32))).not.toBe(incoming[0]!.req!.remoteAddress);
  });
});
