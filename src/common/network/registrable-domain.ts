import { getDomain } from 'tldts';

const ICANN_ONLY = { allowPrivateDomains: false } as const;

/** The registrable domain (ICANN section of the Public Suffix List) of a host name, or null (a suffix, an address). */
export function registrableDomain(host: string): string | null {
  return getDomain(host, ICANN_ONLY);
}
