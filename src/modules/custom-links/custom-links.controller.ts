import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { JsonBodyLimit } from '../../common/validation/json-body';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { LinkCreationService } from './link-creation.service';
import { CustomLinksService } from './custom-links.service';
import { BulkActionRequest, BulkActionResponse } from './dto/bulk-action.request';
import { CreateLinksRequest } from './dto/create-links.request';
import { CustomLinkListQuery } from './dto/custom-link-list.query';
import { CustomLinkListResponse, CustomLinkResponse } from './dto/custom-link.response';
import { jobLocation, JobEnvelopeResponse } from '../custom-link-jobs';
import { UpdateLinkRequest } from './dto/update-link.request';
import { UpdateLinkResponse } from './dto/update-link.response';

/** A creation request carries a batch of up to 500 links (docs/api.md §8.6). */
const CREATE_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

@ApiTags('Custom Links')
@Controller('api/v1/custom-links')
export class CustomLinksController {
  constructor(
    private readonly links: CustomLinksService,
    private readonly jobs: LinkCreationService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List Custom Links' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: CustomLinkListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: CustomLinkListQuery): Promise<CustomLinkListResponse> {
    return this.links.list(caller.organizationId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create Custom Links' })
  @ApiJsonBody(CreateLinksRequest, {
    links: [
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        company: 'Analytical Engines',
        role: 'CTO',
        externalId: 'crm-00042',
        prospectDomain: 'example.com',
      },
    ],
    campaign: { name: 'Q4 enterprise outreach' },
  })
  @HttpCode(202)
  @RequireScope('custom_links:write')
  @Idempotent({ required: true })
  @JsonBodyLimit(CREATE_BODY_LIMIT_BYTES)
  @ApiAcceptedResponse({
    type: JobEnvelopeResponse,
    description: 'The creation job; poll its Location.',
    headers: responseHeaders(['Location'], [], { Location: 'The creation job: poll it for progress.' }),
  })
  @ApiErrorResponses(400, 401, 403, 409, 422, 429)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateLinksRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JobEnvelopeResponse> {
    const job = await this.jobs.create(caller.organizationId, body, idempotencyKey);
    res.setHeader('Location', jobLocation(job.id));
    return { job };
  }

  @Post('actions')
  @ApiOperation({ summary: 'Apply a bulk action to Custom Links' })
  @ApiJsonBody(BulkActionRequest, {
    action: 'move',
    customLinkIds: ['0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0d'],
    campaignId: '0192f0c5-8a4e-7c3b-9d2a-000000000001',
  })
  @HttpCode(200)
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiOkResponse({ type: BulkActionResponse })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  bulk(@Caller() caller: Principal, @Body() body: BulkActionRequest): Promise<BulkActionResponse> {
    return this.links.bulk(caller.organizationId, body);
  }

  @Get(':link_id')
  @ApiOperation({ summary: 'Get a Custom Link' })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: CustomLinkResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('link_id', ParseUuidPipe) linkId: string): Promise<CustomLinkResponse> {
    return this.links.get(caller.organizationId, linkId);
  }

  @Patch(':link_id')
  @ApiOperation({ summary: 'Update a Custom Link' })
  @ApiJsonBody(UpdateLinkRequest, { shareTitle: 'A demo made for Analytical Engines', active: true })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiOkResponse({ type: UpdateLinkResponse })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429)
  update(
    @Caller() caller: Principal,
    @Param('link_id', ParseUuidPipe) linkId: string,
    @Body() body: UpdateLinkRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<UpdateLinkResponse> {
    return this.links.update(caller.organizationId, linkId, body, idempotencyKey);
  }
}
