import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Classifies an IP address from its parsed value (never from a string pattern), so every
 * spelling of the same address (`127.1`, `0x7f000001`, `::ffff:7f00:1`, ...) lands in the
 * same class. Parsing and range matching are ipaddr.js's; the ranges and what we refuse are
 * ours. Anything that is not ordinary public unicast is refused for agent egress.
 */

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmark'
  | 'unique-local'
  | 'site-local'
  | 'ipv4-translated'
  | 'tunnel';

export interface Classification {
  /** The address in canonical form (an embedded IPv4 address is shown as IPv4). */
  address: string;
  family: 4 | 6;
  kind: AddressClass;
  /** For an IPv6 form that embeds IPv4 (mapped, compatible, NAT64, 6to4): what it wraps. */
  embeddedIpv4?: string;
}

/** Where an IPv6 form carries an IPv4 address (byte offset), and what it is when that address is public. */
interface Embedding {
  at: number;
  via: AddressClass;
}
type Range = [cidr: string, kind: AddressClass, embeds?: Embedding];

/** IANA IPv4 special-purpose registry, the parts that matter for egress; first match wins. */
const V4_RANGES: Range[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmark'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

/**
 * IPv6 special ranges after `::`, `::1` and IPv4-mapped (handled first); first match wins.
 * An embedded public IPv4 address is still an odd route (translation or tunnel) that an agent
 * has no business taking, so it gets the range's own class.
 */
const V6_RANGES: Range[] = [
  ['::/96', 'reserved', { at: 12, via: 'reserved' }], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0/96', 'ipv4-translated', { at: 12, via: 'ipv4-translated' }], // SIIT
  ['64:ff9b::/96', 'ipv4-translated', { at: 12, via: 'ipv4-translated' }], // NAT64
  ['64:ff9b:1::/48', 'ipv4-translated', { at: 12, via: 'ipv4-translated' }], // local-use NAT64
  ['2002::/16', 'tunnel', { at: 2, via: 'tunnel' }], // 6to4
  ['2001::/32', 'tunnel'], // Teredo
  ['2001:db8::/32', 'documentation'],
  ['100::/64', 'reserved'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

const V6_LOOPBACK = ipaddr.IPv6.parseCIDR('::1/128');
const V4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
// Only 2000::/3 is allocated global unicast; everything else is reserved.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

const parsedV4 = V4_RANGES.map(([cidr, kind]) => ({ range: ipaddr.IPv4.parseCIDR(cidr), kind }));
const parsedV6 = V6_RANGES.map(([cidr, kind, embeds]) => ({ range: ipaddr.IPv6.parseCIDR(cidr), kind, embeds }));

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  return parsedV4.find((r) => addr.match(r.range))?.kind ?? 'public';
}

/** Dotted quad only, as the socket takes it (the URL parser has already folded `127.1`, `0x7f000001`, ...). */
function parseV4(text: string): ipaddr.IPv4 | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

/**
 * An IPv6 literal (brackets and zone allowed), validated by Node (the same rules the socket
 * applies) and parsed by ipaddr.js. ipaddr.js reads the deprecated `::a.b.c.d` as IPv4-mapped
 * `::ffff:a.b.c.d`; the socket does not, so that spelling is handed over as `::0:a.b.c.d`.
 */
function parseV6(text: string): ipaddr.IPv6 | null {
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (!net.isIPv6(bare)) return null;
  return ipaddr.IPv6.parse(/^::\d+\.\d+\.\d+\.\d+$/.test(bare) ? `::0:${bare.slice(2)}` : bare);
}

function classifyV6(addr: ipaddr.IPv6, text: string): Classification {
  const bytes = addr.toByteArray();
  const ipv4At = (at: number) => ipaddr.fromByteArray(bytes.slice(at, at + 4)) as ipaddr.IPv4;
  if (bytes.every((b) => b === 0)) return { address: '::', family: 6, kind: 'unspecified' };
  if (addr.match(V6_LOOPBACK)) return { address: '::1', family: 6, kind: 'loopback' };
  // ::ffff:a.b.c.d (IPv4-mapped): the socket talks IPv4 to a.b.c.d.
  if (addr.match(V4_MAPPED)) {
    const inner = addr.toIPv4Address();
    return { address: inner.toString(), family: 4, kind: classifyV4(inner), embeddedIpv4: inner.toString() };
  }
  const special = parsedV6.find((r) => addr.match(r.range));
  if (special?.embeds) {
    const inner = ipv4At(special.embeds.at);
    const kind = classifyV4(inner);
    // An embedded private address keeps its own class.
    return { address: text, family: 6, kind: kind !== 'public' ? kind : special.embeds.via, embeddedIpv4: inner.toString() };
  }
  if (special) return { address: text, family: 6, kind: special.kind };
  return { address: text, family: 6, kind: addr.match(GLOBAL_UNICAST) ? 'public' : 'reserved' };
}

/** Classifies an IP literal (IPv4 dotted quad or IPv6, brackets allowed); null if it is not one. */
export function classifyAddress(address: string): Classification | null {
  const v4addr = parseV4(address);
  if (v4addr) return { address: v4addr.toString(), family: 4, kind: classifyV4(v4addr) };
  const v6addr = parseV6(address);
  if (!v6addr) return null;
  return classifyV6(v6addr, address.replace(/^\[|\]$/g, '').toLowerCase());
}

const WHY: Record<Exclude<AddressClass, 'public'>, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8 or ::)',
  loopback: 'a loopback address (this computer)',
  private: 'a private-network address (10/8, 172.16/12, 192.168/16)',
  'link-local': 'a link-local address (169.254/16 or fe80::/10, where cloud metadata services live)',
  cgnat: 'a carrier-grade NAT address (100.64/10)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  documentation: 'a documentation-only address',
  benchmark: 'a benchmarking address (198.18/15)',
  'unique-local': 'a unique-local IPv6 address (fc00::/7)',
  'site-local': 'a site-local IPv6 address (fec0::/10)',
  'ipv4-translated': 'an IPv6 address that translates to IPv4 (NAT64/SIIT)',
  tunnel: 'a tunnelled IPv6 address (6to4/Teredo)',
};

/** Why an address is refused, in words, or null when it is public. */
export function refusalReason(c: Classification): string | null {
  if (c.kind === 'public') return null;
  const shown = c.embeddedIpv4 && c.address !== c.embeddedIpv4 ? `${c.address} (= ${c.embeddedIpv4})` : c.address;
  return `${shown} is ${WHY[c.kind]}`;
}
