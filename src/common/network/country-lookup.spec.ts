import { CountryLookup } from './country-lookup';

/** docs/api.md §6.1: the bundled IP-to-country database (ip-location-db, CC0). */
describe('CountryLookup', () => {
  const lookup = new CountryLookup();
  lookup.onModuleInit();

  it('finds the country of public IPv4 and IPv6 addresses', () => {
    expect(lookup.countryOf('8.8.8.8')).toBe('US');
    expect(lookup.countryOf('2001:4860:4860::8888')).toBe('US');
    expect(lookup.countryOf('::ffff:8.8.8.8')).toBe('US');
  });

  it('has none for private, loopback or malformed addresses', () => {
    expect(lookup.countryOf('10.1.2.3')).toBeNull();
    expect(lookup.countryOf('127.0.0.1')).toBeNull();
    expect(lookup.countryOf('::1')).toBeNull();
    expect(lookup.countryOf('not-an-address')).toBeNull();
    expect(lookup.countryOf('')).toBeNull();
    expect(lookup.countryOf(null)).toBeNull();
  });
});
