import { registrableDomain } from '../../../common/network/registrable-domain';

/** In src/common/network: a link's account domain builds on it, and the migration list hands that to a migration. */
export { accountDomainOf } from '../../../common/network/account-domain';

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export type DomainParam = { domain: string } | { invalid: string };

/**
 * The `{domain}` path parameter of GET /accounts (docs/api.md §13.5): any case, a trailing dot, a
 * subdomain (reduced to its registrable domain). An email address or URL is refused with a reason.
 */
export function parseDomainParam(raw: string): DomainParam {
  if (raw.includes('@')) return { invalid: 'an email address is not a domain' };
  if (/[\s/:?#]/.test(raw)) return { invalid: 'a URL is not a domain' };
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(host)) return { invalid: 'not a valid domain name' };
  return { domain: registrableDomain(host) ?? host };
}
