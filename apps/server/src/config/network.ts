/** Network settings that need parsing: which proxies in front of the server are trusted. */
import net from 'node:net';
import type { z } from 'zod';

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(v: string): boolean {
  if (TRUST_PROXY_NAMES.includes(v)) return true;
  const [addr, prefix, ...rest] = v.split('/');
  const family = net.isIP(addr ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: off, a hop count, or a list of proxy addresses and CIDRs (Fastify's `trustProxy`). */
export function parseTrustProxy(v: string, ctx: z.RefinementCtx): false | number | string[] {
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        'TRUST_PROXY=true would trust every hop, so any client could choose its own address with X-Forwarded-For: set the number of proxies in front of the server (e.g. 1) or their addresses and CIDRs (e.g. 10.0.0.0/8,192.168.1.7)',
    });
    return false;
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY as a hop count must be at most 10' });
    return hops;
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const bad = list.filter((x) => !isAddressOrCidr(x));
  if (bad.length > 0 || list.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses and CIDRs; not understood: ${bad.join(', ') || v}`,
    });
  }
  return list;
}
