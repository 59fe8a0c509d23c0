import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { PaginationQuery } from '../../common/pagination/pagination.query';
import { JsonBodyLimit } from '../../common/validation/json-body';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { CampaignEngagementResponse, FunnelResponse, SessionReferenceListResponse } from './dto/engagement.response';
import { EngagementService } from './engagement.service';
import { EventsRequest, EventsResponse } from './dto/events.request';
import { EventsService } from './events.service';
import { FunnelQuery } from './dto/funnel.query';
import { LinkEventListResponse } from './dto/link-event.response';
import { LinkEventsQuery } from './dto/link-events.query';

/** An events request carries a batch of up to 1000 events (docs/api.md §8.6). */
const EVENTS_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

@ApiTags('Engagement')
@Controller('api/v1')
export class EngagementController {
  constructor(
    private readonly events: EventsService,
    private readonly engagement: EngagementService,
  ) {}

  @Post('events')
  @ApiOperation({ summary: 'Record engagement events' })
  @ApiJsonBody(EventsRequest, {
    events: [
      {
        eventId: 'evt-0001',
        type: 'page_view',
        customLinkId: '0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0d',
        occurredAt: '2026-11-22T10:00:00.000Z',
        pageViewId: 'pv-1',
        visitorId: 'visitor-1',
      },
    ],
  })
  @HttpCode(202)
  @RequireScope('events:write')
  @Idempotent()
  @JsonBodyLimit(EVENTS_BODY_LIMIT_BYTES)
  @ApiAcceptedResponse({
    type: EventsResponse,
    description: 'Accepted (new), duplicates (eventId seen before) and rejected (unknown link) per event.',
  })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  ingest(@Caller() caller: Principal, @Body() body: EventsRequest): Promise<EventsResponse> {
    return this.events.ingest(caller.organizationId, body.events);
  }

  @Get('custom-link-campaigns/:campaign_id/engagement')
  @ApiOperation({ summary: 'Get campaign engagement' })
  @ApiParam({ name: 'campaign_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: CampaignEngagementResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  campaign(
    @Caller() caller: Principal,
    @Param('campaign_id', ParseUuidPipe) campaignId: string,
  ): Promise<CampaignEngagementResponse> {
    return this.engagement.campaign(caller.organizationId, campaignId);
  }

  @Get('custom-links/:link_id/sessions')
  @ApiOperation({ summary: "List a Custom Link's sessions" })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: SessionReferenceListResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  sessions(
    @Caller() caller: Principal,
    @Param('link_id', ParseUuidPipe) linkId: string,
    @Query() page: PaginationQuery,
  ): Promise<SessionReferenceListResponse> {
    return this.engagement.sessionsOfLink(caller.organizationId, linkId, page.limit, page.offset);
  }

  @Get('custom-links/:link_id/events')
  @ApiOperation({
    summary: "List a Custom Link's events",
    description: 'Newest first. Bot events only with include_bots=true, each with the reason it is a bot.',
  })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: LinkEventListResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  linkEvents(
    @Caller() caller: Principal,
    @Param('link_id', ParseUuidPipe) linkId: string,
    @Query() query: LinkEventsQuery,
  ): Promise<LinkEventListResponse> {
    return this.engagement.eventsOfLink(caller.organizationId, linkId, query);
  }

  @Get('analytics/funnel')
  @ApiOperation({ summary: 'Get the engagement funnel' })
  @RequireScope('analytics:read')
  @ApiOkResponse({ type: FunnelResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  funnel(@Caller() caller: Principal, @Query() query: FunnelQuery): Promise<FunnelResponse> {
    return this.engagement.funnel(caller.organizationId, query);
  }
}
