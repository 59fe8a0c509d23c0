import type dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/** A lookup that answers only with the addresses already validated, so the socket never re-resolves. */
export function pinnedLookup(addresses: dns.LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable =
      options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no validated address of the requested family');
      error.code = 'ENOTFOUND';
      callback(error, '');
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}

/** A URL hostname without the brackets of an IPv6 literal. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
