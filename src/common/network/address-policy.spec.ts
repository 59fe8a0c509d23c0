import { isPublicAddress } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.1', // just above 172.16/12
    '100.63.255.255', // just below CGNAT
    '100.128.0.1', // just above CGNAT
    '198.17.255.255', // just below benchmarking
    '198.20.0.1', // just above benchmarking
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:808:808', // the same, in hex groups
    '64:ff9b::8.8.8.8', // NAT64 to a public address
    '2002:0808:0808::1', // 6to4 of a public address
  ])('allows %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local / metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', '6to4 relay'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'deprecated site-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['::ffff:127.0.0.1', 'mapped loopback'],
    ['::ffff:7f00:1', 'mapped loopback, hex groups'],
    ['::ffff:10.0.0.1', 'mapped private'],
    ['::ffff:169.254.169.254', 'mapped metadata'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'mapped private, long form'],
    ['::FFFF:A9FE:A9FE', 'mapped metadata, upper case'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::10.0.0.1', 'NAT64 to a private address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:0001::1', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of metadata'],
    ['fe80::1%eth0', 'zone id'],
    ['localhost', 'not an IP literal'],
    ['example.com', 'not an IP literal'],
    ['', 'empty'],
    ['127.1', 'shorthand IPv4 (not a literal isIP accepts)'],
    ['2130706433', 'integer IPv4'],
    ['[::1]', 'bracketed'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});
