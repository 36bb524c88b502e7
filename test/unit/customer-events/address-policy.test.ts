import { addressRefusal, classifyAddress, isAddressAllowed, isIpAddress } from '../../../shared/customer-events/address-policy';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

describe('address policy: categories', () => {
  test.each([
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['9.255.255.255', 'public'],
    ['11.0.0.0', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::2', 'unspecified'], // IPv4-compatible ::0.0.0.2
    // IPv4 inside IPv6: judged by the IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'shared'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::808:808', 'public'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:0808:0808::1', 'public'],
    // not addresses
    ['localhost', 'invalid'],
    ['example.com', 'invalid'],
    ['256.1.1.1', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });
});

describe('address policy: what may be reached', () => {
  test.each([
    '10.0.0.1',
    '172.16.5.5',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.1.1',
    '0.0.0.0',
    '224.0.0.1',
    'fc00::1',
    'fe80::1',
    '::',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
  ])('%s is refused everywhere, even locally', (address) => {
    expect(isAddressAllowed(address, strict)).toBe(false);
    expect(isAddressAllowed(address, local)).toBe(false);
  });

  test.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])('loopback %s only when loopback is allowed (local runtime)', (address) => {
    expect(addressRefusal(address, strict)).toBe('loopback');
    expect(addressRefusal(address, local)).toBeUndefined();
  });

  test.each(['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('public %s is allowed', (address) => {
    expect(isAddressAllowed(address, strict)).toBe(true);
  });

  test('a host name is not an address and is never allowed by the classifier (resolve it first)', () => {
    expect(addressRefusal('example.com', local)).toBe('invalid');
    expect(isIpAddress('example.com')).toBe(false);
    expect(isIpAddress('[::1]')).toBe(true);
    expect(isIpAddress('10.0.0.1')).toBe(true);
  });
});
