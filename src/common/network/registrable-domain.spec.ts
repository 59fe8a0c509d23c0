import { registrableDomain } from './registrable-domain';

/** docs/api.md §13.5 (account domains) and §6.3 (referrer domains). */
describe('registrableDomain', () => {
  it('reduces a host to its registrable domain', () => {
    expect(registrableDomain('acme.com')).toBe('acme.com');
    expect(registrableDomain('eu.sales.acme.com')).toBe('acme.com');
    expect(registrableDomain('acme.co.uk')).toBe('acme.co.uk');
    expect(registrableDomain('eu.acme.co.uk')).toBe('acme.co.uk');
    expect(registrableDomain('shop.acme.com.au')).toBe('acme.com.au');
  });

  it('has none for a public suffix itself or an IP address', () => {
    expect(registrableDomain('co.uk')).toBeNull();
    expect(registrableDomain('com')).toBeNull();
    expect(registrableDomain('192.168.0.1')).toBeNull();
  });

  it('uses the ICANN section only (private suffixes such as github.io are ignored)', () => {
    expect(registrableDomain('acme.github.io')).toBe('github.io');
  });
});
