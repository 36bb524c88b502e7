import { isForbiddenAddress } from '../../../shared/customer-events/address-policy';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

describe('address policy at connection time (isForbiddenAddress)', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(false);
  });

  it.each([
    ['instance metadata', '169.254.169.254'],
    ['link-local', '169.254.0.1'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12 (top)', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.10'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['this network', '0.0.0.0'],
    ['documentation', '192.0.2.1'],
    ['benchmarking', '198.18.0.1'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['reserved class E', '240.0.0.1'],
    ['loopback', '127.0.0.1'],
    ['loopback /8', '127.255.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 loopback, long form', '0:0:0:0:0:0:0:1'],
    ['IPv6 unspecified', '::'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped metadata, hex form', '::ffff:a9fe:a9fe'],
    ['IPv4-mapped private', '::ffff:10.1.2.3'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-compatible (deprecated)', '::10.0.0.1'],
    ['NAT64 of metadata', '64:ff9b::a9fe:a9fe'],
    ['6to4 of a private address', '2002:0a00:0001::1'],
    ['AWS metadata over IPv6', 'fd00:ec2::254'],
    ['unique local', 'fc00::1'],
    ['link-local IPv6', 'fe80::1'],
    ['link-local IPv6 with a zone', 'fe80::1%eth0'],
    ['site-local IPv6', 'fec0::1'],
    ['multicast IPv6', 'ff02::1'],
    ['documentation IPv6', '2001:db8::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['bracketed IPv6 loopback', '[::1]'],
    ['not an address', 'localhost'],
    ['empty', ''],
    ['a host name', 'example.com'],
    ['malformed IPv4', '10.0.0.256'],
  ])('forbids %s (%s)', (_label, ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(true);
  });

  it('allows loopback only in local mode, and nothing else private', () => {
    for (const ip of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) expect(isForbiddenAddress(ip, local)).toBe(false);
    for (const ip of ['169.254.169.254', '10.0.0.1', '192.168.0.1', '::ffff:169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::']) {
      expect(isForbiddenAddress(ip, local)).toBe(true);
    }
  });
});
