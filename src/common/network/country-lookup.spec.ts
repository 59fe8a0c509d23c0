import type { AppConfigService } from '../../config/app-config';
import { CountryLookup } from './country-lookup';

const inRole = (appRole: string) => ({ values: { appRole } }) as unknown as AppConfigService;

/** docs/api.md §6.1: the bundled IP-to-country database (ip-location-db, CC0). */
describe('CountryLookup', () => {
  const lookup = new CountryLookup(inRole('api'));
  lookup.onModuleInit();

  it('is loaded at start by a process that serves HTTP, and only when asked by a worker', () => {
    const loaded = (role: string) => {
      const instance = new CountryLookup(inRole(role));
      instance.onModuleInit();
      return (instance as unknown as { reader: unknown }).reader !== null;
    };
    expect([loaded('api'), loaded('all'), loaded('worker')]).toEqual([true, true, false]);
    const worker = new CountryLookup(inRole('worker'));
    worker.onModuleInit();
    expect(worker.countryOf('8.8.8.8')).toBe('US');
  });

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
