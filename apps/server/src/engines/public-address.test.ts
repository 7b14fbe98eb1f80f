/**
 * The address rule for URLs an upstream names, with no network at all: every private, loopback,
 * link-local, shared, unique-local and reserved range refused in every spelling a URL allows
 * (the URL parser's normal form of decimal, hex, octal and short IPv4, bracketed and
 * IPv4-mapped IPv6), and public addresses accepted.
 */
import { describe, expect, it } from 'vitest';
import { isLocalName, isPublicAddress } from './public-address.js';

/** The hostname a URL ends up with, as the fetch would connect to it. */
const hostOf = (spelling: string) => new URL(`https://${spelling}/x.jpg`).hostname;

describe('isPublicAddress', () => {
  const refused: Record<string, string[]> = {
    'this network 0.0.0.0/8': ['0.0.0.0', '0.1.2.3'],
    'private 10/8': ['10.0.0.1', '10.255.255.255'],
    'private 172.16/12': ['172.16.0.1', '172.20.1.1', '172.31.255.255'],
    'private 192.168/16': ['192.168.0.1', '192.168.255.254'],
    'shared 100.64/10 (CGNAT)': ['100.64.0.1', '100.127.255.255'],
    'link-local 169.254/16 (metadata)': ['169.254.169.254', '169.254.0.1'],
    'loopback 127/8': ['127.0.0.1', '127.255.255.254', '127.1.2.3'],
    'documentation and benchmarking': ['192.0.2.10', '198.51.100.7', '203.0.113.9', '198.18.0.1', '198.19.255.1'],
    'multicast and reserved': ['224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255'],
    'IPv6 loopback and unspecified': ['::1', '::', '0:0:0:0:0:0:0:1'],
    'IPv6 unique-local fc00::/7': ['fc00::1', 'fd12:3456:789a::1', 'fdff:ffff::1'],
    'IPv6 link-local fe80::/10': ['fe80::1', 'febf::1'],
    'IPv6 site-local and multicast': ['fec0::1', 'ff02::1', 'ff05::2'],
    'IPv4-mapped IPv6': [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '::ffff:192.168.1.1',
    ],
    'NAT64 and 6to4 of private addresses': [
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
    ],
    'IPv6 special ranges': ['2001:db8::1', '2001::1', '2001:2::1', '100::1', '64:ff9b:1::1', '::127.0.0.1'],
  };
  for (const [range, addresses] of Object.entries(refused)) {
    it(`refuses ${range}`, () => {
      for (const a of addresses) expect(isPublicAddress(a), a).toBe(false);
    });
  }

  it('refuses every spelling a URL turns into a refused address', () => {
    const spellings = [
      '2130706433', // decimal 127.0.0.1
      '0x7f000001', // hex
      '0x7f.0.0.1',
      '0177.0.0.1', // octal
      '127.1', // short form
      '127.0.1',
      '017700000001',
      '3232235777', // decimal 192.168.1.1
      '0xa9fea9fe', // 169.254.169.254
      '0251.0376.0251.0376',
      '167772161', // 10.0.0.1
      '0', // 0.0.0.0
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:169.254.169.254]',
      '[fe80::1]',
      '[fd00::1]',
      '[64:ff9b::127.0.0.1]',
    ];
    for (const s of spellings) {
      const host = hostOf(s);
      expect(isPublicAddress(host), `${s} → ${host}`).toBe(false);
    }
  });

  it('accepts public addresses, also inside IPv6 forms that embed them', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '172.15.255.255',
      '172.32.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '169.253.0.1',
      '192.169.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:81b::200e',
      '[2001:4860:4860::8888]',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect(isPublicAddress(a), a).toBe(true);
    expect(isPublicAddress(hostOf('134744072'))).toBe(true); // decimal 8.8.8.8
  });

  it('is false for anything that is not an address', () => {
    for (const a of ['', 'example.com', '1.2.3', '1.2.3.4.5', '::g', '[::1', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0'])
      expect(isPublicAddress(a), a).toBe(false);
  });
});

describe('isLocalName', () => {
  it('names this machine or its network without a lookup', () => {
    for (const n of [
      'localhost',
      'LOCALHOST',
      'localhost.',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
      'router.home.arpa',
      'redis',
    ])
      expect(isLocalName(n), n).toBe(true);
    for (const n of ['example.com', 'v3.fal.media', 'replicate.delivery']) expect(isLocalName(n), n).toBe(false);
  });
});
