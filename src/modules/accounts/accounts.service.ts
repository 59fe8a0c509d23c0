import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { RequestValidationError, valueError } from '../../common/validation/validation-issue';
import { AccountsRepository } from './accounts.repository';
import { toAccountResponse, type AccountResponse } from './dto/account.response';
import { parseDomainParam } from './rules/account-domain';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  /** GET /accounts/{domain}: 422 for an email or URL, then 404 when the organization has no such account. */
  async get(organizationId: string, rawDomain: string): Promise<AccountResponse> {
    const parsed = parseDomainParam(rawDomain);
    if ('invalid' in parsed) throw new RequestValidationError([valueError(['path', 'domain'], rawDomain, parsed.invalid)]);
    const account = await this.accounts.findByDomain(organizationId, parsed.domain);
    if (!account) throw NotFoundError.inOrganization('Account');
    return toAccountResponse(account);
  }
}
