import { describe, expect, it } from 'vitest';
import { checkAddress, parseIpLiteral } from './ip-policy.ts';

describe('checkAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fc00::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:10.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0xa000001', 'private'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    // Every form that embeds an IPv4 address is refused, whatever the address inside (public ones too).
    ['::127.0.0.1', 'IPv4-mapped'],
    ['::7f00:1', 'IPv4-compatible'],
    ['[::a9fe:a9fe]', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::ffff:0:808:808', 'IPv4-translated'],
    ['64:ff9b::808:808', 'NAT64'],
    ['64:ff9b:1::a00:1', 'NAT64'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['100::1', 'non-public'],
    ['4000::1', 'global unicast'],
  ])('refuses %s (%s)', (address, kind) => {
    const verdict = checkAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason.toLowerCase()).toContain(kind.toLowerCase());
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '[2001:4860:4860::8888]'])(
    'allows %s',
    (address) => {
      expect(checkAddress(address)).toMatchObject({ allowed: true });
    },
  );

  it('normalises the address it checked', () => {
    expect(checkAddress('2130706433')).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(checkAddress('[2606:4700:4700:0:0:0:0:1111]')).toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
      allowed: true,
    });
  });

  it('refuses what is not an address, and zone ids', () => {
    expect(checkAddress('example.com').allowed).toBe(false);
    expect(parseIpLiteral('fe80::1%eth0')).toBeNull();
    expect(parseIpLiteral('example.com')).toBeNull();
  });
});
