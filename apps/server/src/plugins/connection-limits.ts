/**
 * Connections: at most `maxConnectionsPerAddress` open at once from one client address; one more
 * is closed as soon as it opens. The proxies TRUST_PROXY names are exempt (every shopper behind
 * them shares their address: the proxy is the place to limit them). With TRUST_PROXY as a hop
 * count every peer is a proxy, so there is no limit here. The timeouts that close slow and idle
 * connections are the server's options (`serverTimeouts`).
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

/** proxy-addr's names for address ranges (TRUST_PROXY accepts them), as subnets. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** An IPv4 address as dual-stack sockets report it (`::ffff:1.2.3.4`) becomes `1.2.3.4`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** The trusted proxies of a TRUST_PROXY list, as a BlockList (addresses, CIDRs and named ranges). */
function trustedProxies(list: readonly string[]): net.BlockList {
  const proxies = new net.BlockList();
  for (const entry of list) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [addr, prefix, family] of named) proxies.addSubnet(addr, prefix, family);
      continue;
    }
    const [addr = '', prefix] = entry.split('/');
    const family = net.isIPv4(addr) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) proxies.addAddress(addr, family);
    else proxies.addSubnet(addr, Number(prefix), family);
  }
  return proxies;
}

/** Whether connections from an address are exempt from the per-address limit. */
export function exemptFromConnectionLimit(trustProxy: Config['trustProxy']): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => true;
  const proxies = trustedProxies(trustProxy);
  return (address) => {
    const plain = plainAddress(address);
    return proxies.check(plain, net.isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}

export default fp(
  async function connectionLimits(app: FastifyInstance, opts: { config: Config }) {
    const max = opts.config.maxConnectionsPerAddress;
    if (max === 0) return;
    const exempt = exemptFromConnectionLimit(opts.config.trustProxy);
    const open = new Map<string, number>();
    // Before the HTTP server's own listener: a refused connection is never parsed.
    app.server.prependListener('connection', (socket: net.Socket) => {
      const address = plainAddress(socket.remoteAddress ?? '');
      if (address === '' || exempt(address)) return;
      const count = open.get(address) ?? 0;
      if (count >= max) {
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  },
  { name: 'connection-limits' },
);
