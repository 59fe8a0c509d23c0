import { addressBucket } from './client-address';

describe('addressBucket', () => {
  it('counts IPv4 per address, IPv4-mapped IPv6 as its IPv4 address', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts IPv6 per /64, whatever the spelling of the address', () => {
    const bucket = '2001:db8:0:1::/64';
    expect(addressBucket('2001:db8:0:1::1')).toBe(bucket);
    expect(addressBucket('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe(bucket);
    expect(addressBucket('2001:DB8::1:0:0:0:9')).toBe(bucket);
    expect(addressBucket('2001:db8:0:1:a::%eth0')).toBe(bucket);
    expect(addressBucket('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
  });

  it('expands the short forms', () => {
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('::')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
