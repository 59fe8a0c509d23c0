import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnyKey, Caller } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import type { RateLimitedRequest } from '../../common/limits/rate-limit.guard';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { UsageResponse } from './dto/usage.response';
import { UsageService } from './usage.service';

@ApiTags('Usage')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    summary: 'Get usage and remaining quota',
    description:
      'Any valid key, whatever its scopes. Every figure is the one its limit enforces; the request itself is counted in requestRate.',
  })
  @AnyKey()
  @ApiOkResponse({ type: UsageResponse })
  @ApiErrorResponses(401, 429)
  get(@Caller() caller: Principal, @Req() req: RateLimitedRequest): Promise<UsageResponse> {
    // The request-rate guard charged every authenticated request before this handler runs.
    return this.usage.usage(caller.organizationId, req.rateLimitCharge!);
  }
}
