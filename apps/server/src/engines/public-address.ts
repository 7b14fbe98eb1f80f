/**
 * Which network addresses an upstream may make the server connect to: public unicast ones only.
 * Loopback, private, shared (CGNAT), link-local (the cloud metadata service at 169.254.169.254),
 * unique-local, multicast, documentation, benchmarking and reserved ranges are refused, in IPv4
 * and IPv6, and an IPv6 address that embeds an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) is judged by the IPv4 address inside. Other spellings of an
 * IPv4 address in a URL (decimal `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`, short
 * `127.1`) reach this module already normalised by the URL parser, and are refused the same.
 * Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** [first address, prefix length] of every IPv4 range no upstream may name. */
const IPV4_REFUSED: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const IPV4_RANGES = IPV4_REFUSED.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (ipv4ToInt(base) & mask) >>> 0, mask };
});

function publicIPv4(ip: string): boolean {
  const n = ipv4ToInt(ip);
  return !IPV4_RANGES.some((r) => (n & r.mask) >>> 0 === r.net);
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part is two of them). */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!isIPv4(last)) return undefined;
    const n = ipv4ToInt(last);
    tail = [n >>> 16, n & 0xffff];
    text = `${text.slice(0, lastColon + 1)}${tail.length ? '0:0' : ''}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return undefined;
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups;
}

const embeddedIPv4 = (hi: number, lo: number) => `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;

function publicIPv6(ip: string): boolean {
  if (ip.includes('%')) return false; // a zone id names a local interface
  const g = ipv6Groups(ip);
  if (!g) return false;
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address inside decides.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return publicIPv4(embeddedIPv4(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return publicIPv4(embeddedIPv4(g[6]!, g[7]!));
  // 6to4 (2002:aabb:ccdd::): the IPv4 address in its second and third groups.
  if (g[0] === 0x2002) return publicIPv4(embeddedIPv4(g[1]!, g[2]!));
  // Only global unicast (2000::/3) is public; inside it, the special ranges are not.
  if ((g[0]! & 0xe000) !== 0x2000) return false; // ::, ::1, fc00::/7, fe80::/10, ff00::/8, 100::/64, 64:ff9b:1::/48 …
  if (g[0] === 0x2001 && g[1]! < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, benchmarking)
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x3fff && g[1]! < 0x1000) return false; // documentation (3fff::/20)
  return true;
}

/**
 * True only for a public unicast IPv4 or IPv6 address (as `net.isIP` spells them, or the bracketed
 * IPv6 form a URL's hostname has). Anything that is not an address at all is false.
 */
export function isPublicAddress(address: string): boolean {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(ip)) return publicIPv4(ip);
  if (isIPv6(ip)) return publicIPv6(ip.toLowerCase());
  return false;
}

/** A hostname that names this machine or its network without any lookup (`localhost`, `*.localhost`, `*.local`…). */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    name.endsWith('.home.arpa') ||
    !name.includes('.')
  );
}
