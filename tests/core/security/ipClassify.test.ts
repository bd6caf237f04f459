import { describe, expect, it } from 'vitest';
import { classifyAddress, refusalReason } from '../../../src-main/core/security/ipClassify';

describe('classifyAddress (from parsed bytes)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'benchmark'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'ipv4-translated'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:db8::1', 'documentation'],
  ])('%s is %s', (addr, kind) => {
    expect(classifyAddress(addr)?.kind).toBe(kind);
  });

  it('public unicast stays public, just outside each private range', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
      expect(classifyAddress(a)?.kind, a).toBe('public');
    }
  });

  it('an IPv4-mapped address is classified and shown as the IPv4 it reaches', () => {
    const c = classifyAddress('::ffff:7f00:1')!;
    expect(c).toMatchObject({ family: 4, address: '127.0.0.1', kind: 'loopback' });
    expect(refusalReason(c)).toMatch(/loopback/);
  });

  it('is not an IP literal: null', () => {
    expect(classifyAddress('example.org')).toBeNull();
    expect(classifyAddress('127.1')).toBeNull(); // the URL parser folds it first; see egress tests
  });
});
