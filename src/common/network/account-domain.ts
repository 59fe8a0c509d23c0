import { createRequire } from 'node:module';
import { registrableDomain } from './registrable-domain';

// email-providers is an ES module whose list is plain JSON; read the JSON directly.
const FREE_MAIL_HOSTS: ReadonlySet<string> = new Set(createRequire(__filename)('email-providers/all.json') as string[]);

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

/**
 * The account domain of a prospect known by an email and a company domain (a Custom Link's, docs/api.md
 * §13.5): the email's account domain, else the registrable domain of the company domain (a host or a
 * URL, any case); null when neither gives one. Here and not in a module: the migration that stored it
 * for the links made before it (LinkAccountDomains) is handed this function by the migration list.
 */
export function prospectAccountDomain(email: string | null, domain: string | null): string | null {
  return (email ? accountDomainOf(email) : null) ?? (domain ? registrableDomain(domain.trim().toLowerCase()) : null);
}
