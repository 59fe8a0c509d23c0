import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { CursorPageQuery } from '../../common/pagination/pagination.query';
import { AccountActivityService } from './account-activity.service';
import { AccountsService } from './accounts.service';
import { AccountActivityListResponse } from './dto/account-activity.response';
import { AccountListResponse, AccountResponse } from './dto/account.response';
import { AccountsListQuery } from './dto/accounts-list.query';

const DomainParam = () =>
  ApiParam({
    name: 'domain',
    description: 'Registrable business domain (any case, trailing dot allowed); not an email or URL.',
  });

@ApiTags('Accounts')
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly activities: AccountActivityService,
  ) {}

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
  @DomainParam()
  @RequireScope('accounts:read')
  @ApiOkResponse({ type: AccountResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('domain') domain: string): Promise<AccountResponse> {
    return this.accounts.get(caller.organizationId, domain);
  }

  @Get(':domain/activity')
  @ApiOperation({
    summary: "List an account's activity",
    description:
      "The sessions of the account's people and the human, external events of its Custom Links, newest first " +
      '(occurredAt, then sessions before events, then the session id or eventId, descending); paged by cursor only.',
  })
  @DomainParam()
  @RequireScope('accounts:read')
  @ApiOkResponse({ type: AccountActivityListResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  activity(
    @Caller() caller: Principal,
    @Param('domain') domain: string,
    @Query() query: CursorPageQuery,
  ): Promise<AccountActivityListResponse> {
    return this.activities.activity(caller.organizationId, domain, query);
  }
}
