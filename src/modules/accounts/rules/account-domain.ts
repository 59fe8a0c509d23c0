import { createRequire } from 'node:module';
import { registrableDomain } from '../../../common/network/registrable-domain';

// email-providers is an ES module whose list is plain JSON; read the JSON directly.
const FREE_MAIL_HOSTS: ReadonlySet<string> = new Set(createRequire(__filename)('email-providers/all.json') as string[]);

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * An email's account domain (docs/api.md §13.5): the registrable domain of its host, none for free-mail
 * providers (the host or its registrable domain on the email-providers list) or for hosts with no
 * registrable domain.
 */
export function accountDomainOf(email: string): string | null {
  const host = email
    .slice(email.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  const domain = registrableDomain(host);
  if (domain === null || FREE_MAIL_HOSTS.has(host) || FREE_MAIL_HOSTS.has(domain)) return null;
  return domain;
}

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
