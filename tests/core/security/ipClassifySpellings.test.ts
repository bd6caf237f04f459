import { describe, expect, it } from 'vitest';
import { classifyAddress, refusalReason } from '../../../src-main/core/security/ipClassify';

// Spellings where a general-purpose parser and the socket disagree: what we classify must be what we would connect to.
describe('classifyAddress on spellings the socket reads its own way', () => {
  it('reads ::a.b.c.d as IPv4-compatible (refused), not as IPv4-mapped (which would pass 8.8.8.8 as public IPv4)', () => {
    expect(classifyAddress('::8.8.8.8')).toMatchObject({ family: 6, kind: 'reserved', embeddedIpv4: '8.8.8.8', address: '::8.8.8.8' });
    expect(classifyAddress('::0808:0808')).toMatchObject({ family: 6, kind: 'reserved' });
    expect(refusalReason(classifyAddress('::8.8.8.8')!)).toBe('::8.8.8.8 (= 8.8.8.8) is a reserved address');
  });

  it('keeps a zone id out of the parse and the class', () => {
    expect(classifyAddress('fe80::1%eth0')?.kind).toBe('link-local');
    expect(classifyAddress('[::1%lo]')?.kind).toBe('loopback');
  });

  it('refuses IPv4 forms the socket would not take as a dotted quad: leading zeros, hex, a dotted tail in hex', () => {
    for (const a of ['010.0.0.1', '0x7f.0.0.1', '127.0.0.1.', '::ffff:0x7f.0.0.1', '::ffff:127.1']) expect(classifyAddress(a), a).toBeNull();
  });

  it('tells SIIT, NAT64 and 6to4 forms by the IPv4 they wrap', () => {
    expect(classifyAddress('::ffff:0:8.8.8.8')).toMatchObject({ kind: 'ipv4-translated', embeddedIpv4: '8.8.8.8' });
    expect(classifyAddress('64:ff9b:1::a00:1')?.kind).toBe('private');
    expect(classifyAddress('2002:0808:0808::1')).toMatchObject({ kind: 'tunnel', embeddedIpv4: '8.8.8.8' });
    expect(classifyAddress('2001:0:4136:e378::1')?.kind).toBe('tunnel');
    expect(classifyAddress('4000::1')?.kind).toBe('reserved');
  });
});
