import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { PaginationQuery } from '../../common/pagination/pagination.query';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { CampaignsService } from './campaigns.service';
import { CampaignNameRequest } from './dto/campaign-name.request';
import { CampaignListResponse, CampaignResponse } from './dto/campaign.response';

@ApiTags('Custom Link campaigns')
@Controller('api/v1/custom-link-campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get()
  @ApiOperation({ summary: 'List campaigns' })
  @RequireScope('custom_links:read')
  @ApiOkResponse({ type: CampaignListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: PaginationQuery): Promise<CampaignListResponse> {
    return this.campaigns.list(caller.organizationId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a campaign' })
  @ApiJsonBody(CampaignNameRequest, { name: 'Q4 enterprise outreach' })
  @HttpCode(201)
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiCreatedResponse({ type: CampaignResponse })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  create(@Caller() caller: Principal, @Body() body: CampaignNameRequest): Promise<CampaignResponse> {
    return this.campaigns.create(caller.organizationId, body.name);
  }

  @Patch(':campaign_id')
  @ApiOperation({ summary: 'Rename a campaign' })
  @ApiJsonBody(CampaignNameRequest, { name: 'Q4 enterprise outreach (EMEA)' })
  @ApiParam({ name: 'campaign_id', format: 'uuid' })
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiOkResponse({ type: CampaignResponse })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  rename(
    @Caller() caller: Principal,
    @Param('campaign_id', ParseUuidPipe) campaignId: string,
    @Body() body: CampaignNameRequest,
  ): Promise<CampaignResponse> {
    return this.campaigns.rename(caller.organizationId, campaignId, body.name);
  }

  @Delete(':campaign_id')
  @ApiOperation({ summary: 'Delete a campaign' })
  @ApiParam({ name: 'campaign_id', format: 'uuid' })
  @HttpCode(204)
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiNoContentResponse({ description: 'Deleted; its links stay, unfiled.' })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  delete(@Caller() caller: Principal, @Param('campaign_id', ParseUuidPipe) campaignId: string): Promise<void> {
    return this.campaigns.delete(caller.organizationId, campaignId);
  }
}
