import { describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, parseCidr, parseCidrList, parseIpAddress, parseIpv4, parseIpv6, formatIpAddress, type RefusedRange } from '../../../domain/shared/ip-ranges.ts';

const classify = (text: string) => {
  const address = parseIpAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return classifyAddress(address);
};

describe('parsing addresses', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['8.8.8.8.', '8.8.8.8'],
  ])('reads the IPv4 form %s as %s', (text, expected) => {
    expect(formatIpAddress(parseIpv4(text)!)).toBe(expected);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '08.0.0.1', 'example.com', '', '1..1', '4294967296', '1.2.3.256'])('does not read %s as IPv4', (text) => {
    expect(parseIpv4(text)).toBeNull();
  });

  it.each([
    ['::1', '0:0:0:0:0:0:0:1'],
    ['[::1]', '0:0:0:0:0:0:0:1'],
    ['::', '0:0:0:0:0:0:0:0'],
    ['::ffff:127.0.0.1', '0:0:0:0:0:ffff:7f00:1'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['2001:db8:0:0:1::1', '2001:db8:0:0:1:0:0:1'],
  ])('reads the IPv6 form %s', (text, expected) => {
    expect(formatIpAddress(parseIpv6(text)!)).toBe(expected);
  });

  it.each(['1:2:3:4:5:6:7:8:9', '1::2::3', 'gggg::1', '::ffff:1.2.3', '1:2:3:4:5:6:7', 'localhost'])('does not read %s as IPv6', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });
});

describe('classifyAddress', () => {
  it.each<[string, RefusedRange]>([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['64:ff9b:1::1', 'private'],
    ['4000::1', 'reserved'],
    // IPv4 embedded in IPv6: mapped, compatible, translated, NAT64, 6to4.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['::192.168.1.1', 'private'],
    ['::ffff:0:192.168.1.1', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
  ])('refuses %s (%s)', (text, range) => {
    expect(classify(text)).toEqual({ public: false, range });
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '172.15.255.255', '100.128.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'accepts the public address %s',
    (text) => {
      expect(classify(text)).toEqual({ public: true });
    },
  );
});

describe('the private allowlist', () => {
  it('reads CIDRs and single addresses, and refuses malformed entries', () => {
    expect(parseCidrList('127.0.0.1/32, ::1/128 10.0.0.0/8')).toHaveLength(3);
    expect(parseCidrList('')).toEqual([]);
    expect(parseCidrList(undefined)).toEqual([]);
    expect(parseCidr('127.0.0.1')).toEqual({ family: 4, network: 0x7f000001n, prefix: 32 });
    expect(parseCidr('10.1.2.3/8')).toEqual({ family: 4, network: 0x0a000000n, prefix: 8 });
    for (const bad of ['127.1/32', '10.0.0.0/33', '::1/129', 'localhost/8', '10.0.0.0/x', '1.2.3.4/8/9']) {
      expect(() => parseCidrList(bad), bad).toThrow(/not a CIDR/);
    }
  });

  it('lets listed private addresses through, their IPv6 forms included, and nothing else', () => {
    const allowlist = parseCidrList('127.0.0.1/32');
    expect(addressAllowed(parseIpAddress('127.0.0.1')!, allowlist)).toEqual({ public: true });
    expect(addressAllowed(parseIpAddress('::ffff:127.0.0.1')!, allowlist)).toEqual({ public: true });
    expect(addressAllowed(parseIpAddress('127.0.0.2')!, allowlist)).toEqual({ public: false, range: 'loopback' });
    expect(addressAllowed(parseIpAddress('::1')!, allowlist)).toEqual({ public: false, range: 'loopback' });
    expect(addressAllowed(parseIpAddress('10.0.0.1')!, allowlist)).toEqual({ public: false, range: 'private' });
    expect(addressAllowed(parseIpAddress('10.0.0.1')!, [])).toEqual({ public: false, range: 'private' });
    expect(addressAllowed(parseIpAddress('8.8.8.8')!, [])).toEqual({ public: true });
  });
});
