import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Reader, type CountryResponse } from 'maxmind';
import { AppConfigService } from '../../config/app-config';

/** The country database of ip-location-db (CC0), as its npm package ships it. */
const DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** ip-location-db's record: a bare country code, not MaxMind's GeoLite2 shape (the reader's type asks for one of those). */
type CountryRecord = CountryResponse & { country_code?: string };

/**
 * The country of a client address, looked up in memory (a few microseconds) in the database the
 * project installs from npm: no network call, and the address goes nowhere. A process that serves
 * HTTP loads it (about 15 MB) at start, so no request pays for it; a worker, which looks up nothing,
 * never does.
 */
@Injectable()
export class CountryLookup implements OnModuleInit {
  private reader: Reader<CountryRecord> | null = null;

  constructor(private readonly config: AppConfigService) {}

  onModuleInit(): void {
    if (this.config.values.appRole !== 'worker') this.database();
  }

  /** ISO 3166-1 alpha-2 (upper case), or null: not an address, private, or not in the database. */
  countryOf(address: string | null | undefined): string | null {
    if (!address) return null;
    // An IPv4-mapped IPv6 address (a dual-stack socket's peer) is its IPv4 address.
    const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    if (isIP(ip) === 0) return null;
    const code = this.database().get(ip)?.country_code;
    return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
  }

  private database(): Reader<CountryRecord> {
    this.reader ??= new Reader<CountryRecord>(readFileSync(require.resolve(DATABASE)));
    return this.reader;
  }
}
