import { prospectAccountDomain } from '../../../common/network/account-domain';
import type { CustomLinkRow, LinkColumns } from '../custom-links.repository';

/**
 * The columns of a link write with its account domain (docs/api.md §13.5), which the link stores
 * (custom_links.account_domain: accounts group their links by it): every write of the email or
 * prospectDomain goes through here. `current` is the link before an update (none at creation); an
 * update that changes neither field is left as it is.
 */
export function withAccountDomain(
  columns: LinkColumns,
  current?: Pick<CustomLinkRow, 'email' | 'prospect_domain'>,
): LinkColumns {
  if (current && !('email' in columns) && !('prospect_domain' in columns)) return columns;
  const email = 'email' in columns ? columns.email : current?.email;
  const domain = 'prospect_domain' in columns ? columns.prospect_domain : current?.prospect_domain;
  return { ...columns, account_domain: prospectAccountDomain(email ?? null, domain ?? null) };
}
