import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import { RequestValidationError, valueError } from '../../common/errors/validation-issue';
import { InjectPort } from '../../common/wiring/port';
import { ACCOUNT_LINKS, type AccountLinks } from './account-links';
import { AccountsRepository, type AccountRow } from './accounts.repository';
import type { AccountsListQuery } from './dto/accounts-list.query';
import { toAccountResponse, type AccountListResponse, type AccountResponse } from './dto/account.response';
import { parseDomainParam } from './rules/account-domain';

/** The accounts list's name in its cursors' signature. */
const ACCOUNT_LIST = 'accounts';

/** Accounts with their links' engagement, which custom-links counts (AccountLinks): one read per page. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly cursors: Cursors,
    @InjectPort(ACCOUNT_LINKS) private readonly links: AccountLinks,
  ) {}

  /**
   * GET /accounts: lastSeenAt newest first, or (updatedAt, id) for a sync. The total is counted on
   * each call (accounts_list_idx, index only): an organization has far fewer accounts than sessions.
   */
  async list(organizationId: string, query: AccountsListQuery): Promise<AccountListResponse> {
    const window = this.cursors.window(ACCOUNT_LIST, organizationId, query);
    const [rows, total] = await Promise.all([
      this.accounts.listPage(organizationId, query, window),
      this.accounts.count(organizationId, query),
    ]);
    const page = this.cursors.page(ACCOUNT_LIST, organizationId, query, window, rows, keysetOf);
    return {
      accounts: await this.withEngagement(organizationId, page.rows),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  /** GET /accounts/{domain}: 422 for an email or URL, then 404 when the organization has no such account. */
  async get(organizationId: string, rawDomain: string): Promise<AccountResponse> {
    const account = await this.find(organizationId, domainOfParam(rawDomain));
    const [response] = await this.withEngagement(organizationId, [account]);
    return response;
  }

  /** The organization's account of a domain (domainOfParam's); 404 when it has none. */
  async find(organizationId: string, domain: string): Promise<AccountRow> {
    const account = await this.accounts.findByDomain(organizationId, domain);
    if (!account) throw NotFoundError.inOrganization('Account');
    return account;
  }

  private async withEngagement(organizationId: string, rows: AccountRow[]): Promise<AccountResponse[]> {
    const figures =
      rows.length === 0
        ? new Map()
        : await this.links.figuresOf(
            organizationId,
            rows.map((row) => row.account_domain),
          );
    return rows.map((row) => toAccountResponse(row, figures.get(row.account_domain)));
  }
}

/** The account domain a `{domain}` path parameter names (docs/api.md §13.5); 422 for an email or URL. */
export function domainOfParam(rawDomain: string): string {
  const parsed = parseDomainParam(rawDomain);
  if ('invalid' in parsed)
    throw new RequestValidationError([valueError(['path', 'domain'], rawDomain, parsed.invalid)]);
  return parsed.domain;
}
