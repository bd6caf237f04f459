import net from 'node:net';

/**
 * Classifies an IP address from its parsed bytes (never from a string pattern), so every
 * spelling of the same address (`127.1`, `0x7f000001`, `::ffff:7f00:1`, ...) lands in the
 * same class. Anything that is not ordinary public unicast is refused for agent egress.
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

type V4Range = [base: number, bits: number, kind: AddressClass];

const v4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IANA IPv4 special-purpose registry, the parts that matter for egress. */
const V4_RANGES: V4Range[] = [
  [v4(0, 0, 0, 0), 8, 'unspecified'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'cgnat'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'reserved'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, 'reserved'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'benchmark'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(255, 255, 255, 255), 32, 'broadcast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function inV4(addr: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (~((1 << (32 - bits)) - 1)) >>> 0;
  return ((addr & mask) >>> 0) === ((base & mask) >>> 0);
}

function classifyV4Number(n: number): AddressClass {
  for (const [base, bits, kind] of V4_RANGES) if (inV4(n, base, bits)) return kind;
  return 'public';
}

function v4String(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Dotted-quad only (the URL parser has already normalised the odd spellings). */
function parseV4(text: string): number | null {
  if (net.isIPv4(text) === false) return null;
  const parts = text.split('.').map(Number);
  return v4(parts[0]!, parts[1]!, parts[2]!, parts[3]!);
}

/** 16 bytes of an IPv6 address; handles `::` and a dotted IPv4 tail. */
export function parseV6(text: string): Uint8Array | null {
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (!net.isIPv6(bare)) return null;
  let head = bare;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (dotted) {
    const n = parseV4(dotted[1]!);
    if (n === null) return null;
    tail.push(n >>> 16, n & 0xffff);
    head = head.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const l = groups(left);
  const r = [...groups(right), ...tail];
  const missing = 8 - l.length - r.length;
  if (right === undefined && missing !== 0) return null;
  const all = [...l, ...new Array<number>(Math.max(0, missing)).fill(0), ...r];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 255;
  });
  return bytes;
}

const hasPrefix = (b: Uint8Array, prefix: number[], bits: number): boolean => {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const bit = 7 - (i & 7);
    if (((b[byte]! >> bit) & 1) !== (((prefix[byte] ?? 0) >> bit) & 1)) return false;
  }
  return true;
};

const v4At = (b: Uint8Array, offset: number): number => ((b[offset]! << 24) | (b[offset + 1]! << 16) | (b[offset + 2]! << 8) | b[offset + 3]!) >>> 0;

function classifyV6(b: Uint8Array, text: string): Classification {
  const isZero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const wrap = (n: number, via: AddressClass | null): Classification => {
    const inner = classifyV4Number(n);
    // An embedded private address keeps its own class; an embedded public one is still an
    // odd route (translation or tunnel) that an agent has no business taking.
    return { address: text, family: 6, kind: inner !== 'public' ? inner : (via ?? 'public'), embeddedIpv4: v4String(n) };
  };
  if (isZero(0, 16)) return { address: '::', family: 6, kind: 'unspecified' };
  if (isZero(0, 15) && b[15] === 1) return { address: '::1', family: 6, kind: 'loopback' };
  // ::ffff:a.b.c.d (IPv4-mapped): the socket talks IPv4 to a.b.c.d.
  if (isZero(0, 10) && b[10] === 0xff && b[11] === 0xff) return { ...wrap(v4At(b, 12), null), address: v4String(v4At(b, 12)), family: 4 };
  // ::a.b.c.d (IPv4-compatible, deprecated) and ::ffff:0:a.b.c.d (SIIT).
  if (isZero(0, 12)) return wrap(v4At(b, 12), 'reserved');
  if (hasPrefix(b, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96)) return wrap(v4At(b, 12), 'ipv4-translated');
  if (hasPrefix(b, [0x00, 0x64, 0xff, 0x9b], 96) || hasPrefix(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48)) return wrap(v4At(b, 12), 'ipv4-translated');
  if (hasPrefix(b, [0x20, 0x02], 16)) return wrap(v4At(b, 2), 'tunnel');
  if (hasPrefix(b, [0x20, 0x01, 0x00, 0x00], 32)) return { address: text, family: 6, kind: 'tunnel' };
  if (hasPrefix(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return { address: text, family: 6, kind: 'documentation' };
  if (hasPrefix(b, [0x01, 0x00, 0, 0, 0, 0, 0, 0], 64)) return { address: text, family: 6, kind: 'reserved' };
  if (hasPrefix(b, [0xfc], 7)) return { address: text, family: 6, kind: 'unique-local' };
  if (hasPrefix(b, [0xfe, 0x80], 10)) return { address: text, family: 6, kind: 'link-local' };
  if (hasPrefix(b, [0xfe, 0xc0], 10)) return { address: text, family: 6, kind: 'site-local' };
  if (hasPrefix(b, [0xff], 8)) return { address: text, family: 6, kind: 'multicast' };
  // Only 2000::/3 is allocated global unicast; everything else is reserved.
  if (!hasPrefix(b, [0x20], 3)) return { address: text, family: 6, kind: 'reserved' };
  return { address: text, family: 6, kind: 'public' };
}

/** Classifies an IP literal (IPv4 dotted quad or IPv6, brackets allowed); null if it is not one. */
export function classifyAddress(address: string): Classification | null {
  const n = parseV4(address);
  if (n !== null) return { address: v4String(n), family: 4, kind: classifyV4Number(n) };
  const bytes = parseV6(address);
  if (!bytes) return null;
  return classifyV6(bytes, address.replace(/^\[|\]$/g, '').toLowerCase());
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
