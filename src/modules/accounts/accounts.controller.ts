import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { AccountsService } from './accounts.service';
import { AccountResponse } from './dto/account.response';

@ApiTags('Accounts')
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get(':domain')
  @ApiOperation({ summary: 'Get an account' })
  @ApiParam({ name: 'domain', description: 'Registrable business domain (any case, trailing dot allowed); not an email or URL.' })
  @RequireScope('accounts:read')
  @ApiOkResponse({ type: AccountResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('domain') domain: string): Promise<AccountResponse> {
    return this.accounts.get(caller.organizationId, domain);
  }
}
