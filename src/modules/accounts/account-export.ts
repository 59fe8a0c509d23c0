import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { EXPORT_SOURCES, type ExportSource } from '../exports';
import { AccountResponse } from './dto/account.response';
import { AccountsListQuery } from './dto/accounts-list.query';
import { AccountsService } from './accounts.service';

/** The account list as the exports module reads it: GET /api/v1/accounts, page by page. */
@Injectable()
@ImplementsPort(EXPORT_SOURCES)
export class AccountExport implements ExportSource<AccountsListQuery> {
  readonly resource = 'accounts';
  readonly scopes = ['accounts:read' as const];
  readonly filters = AccountsListQuery;
  readonly item = AccountResponse;

  constructor(private readonly accounts: AccountsService) {}

  async page(organizationId: string, query: AccountsListQuery) {
    const { accounts, nextCursor } = await this.accounts.list(organizationId, query);
    return { items: accounts, nextCursor };
  }
}
