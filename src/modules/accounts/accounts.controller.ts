import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { AccountsService } from './accounts.service';
import { AccountListResponse, AccountResponse } from './dto/account.response';
import { AccountsListQuery } from './dto/accounts-list.query';

@ApiTags('Accounts')
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({
    summary: 'List accounts',
    description: 'lastSeenAt newest first; with updated_since, (updatedAt, id) ascending.',
  })
  @RequireScope('accounts:read')
  @ApiOkResponse({ type: AccountListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: AccountsListQuery): Promise<AccountListResponse> {
    return this.accounts.list(caller.organizationId, query);
  }

  @Get(':domain')
  @ApiOperation({ summary: 'Get an account' })
  @ApiParam({
    name: 'domain',
    description: 'Registrable business domain (any case, trailing dot allowed); not an email or URL.',
  })
  @RequireScope('accounts:read')
  @ApiOkResponse({ type: AccountResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('domain') domain: string): Promise<AccountResponse> {
    return this.accounts.get(caller.organizationId, domain);
  }
}
