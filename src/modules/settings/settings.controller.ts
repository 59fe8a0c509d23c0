import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { InternalTrafficRequest } from './dto/internal-traffic.request';
import { InternalTrafficResponse } from './dto/internal-traffic.response';
import { RetentionRequest } from './dto/retention.request';
import { RetentionResponse } from './dto/retention.response';
import { SettingsService } from './settings.service';

@ApiTags('Settings')
@Controller('api/v1/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('internal-traffic')
  @ApiOperation({ summary: 'Get the internal traffic setting' })
  @RequireScope('settings:read', 'settings:write')
  @ApiOkResponse({ type: InternalTrafficResponse })
  @ApiErrorResponses(401, 403, 429)
  internalTraffic(@Caller() caller: Principal): Promise<InternalTrafficResponse> {
    return this.settings.internalTraffic(caller.organizationId);
  }

  @Put('internal-traffic')
  @ApiOperation({ summary: 'Replace the internal traffic setting' })
  @ApiJsonBody(InternalTrafficRequest, {
    ipRanges: ['203.0.113.0/24'],
    visitorIds: ['v_0a1b2c3d'],
    userAgentContains: ['AcmeInternalQA'],
  })
  @RequireScope('settings:write')
  @ApiOkResponse({ type: InternalTrafficResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  setInternalTraffic(
    @Caller() caller: Principal,
    @Body() body: InternalTrafficRequest,
  ): Promise<InternalTrafficResponse> {
    return this.settings.setInternalTraffic(caller.organizationId, body);
  }

  @Get('retention')
  @ApiOperation({ summary: 'Get the retention setting' })
  @RequireScope('settings:read', 'settings:write')
  @ApiOkResponse({ type: RetentionResponse })
  @ApiErrorResponses(401, 403, 429)
  retention(@Caller() caller: Principal): Promise<RetentionResponse> {
    return this.settings.retention(caller.organizationId);
  }

  @Put('retention')
  @ApiOperation({ summary: 'Replace the retention setting' })
  @ApiJsonBody(RetentionRequest, { transcriptDays: 90, sessionDays: 365, eventDays: null })
  @RequireScope('settings:write')
  @ApiOkResponse({ type: RetentionResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  setRetention(@Caller() caller: Principal, @Body() body: RetentionRequest): Promise<RetentionResponse> {
    return this.settings.setRetention(caller.organizationId, body);
  }
}
