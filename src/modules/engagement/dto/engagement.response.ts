import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import { AS_OF } from './as-of';

const time = { type: String, format: 'date-time', nullable: true } as const;

/** Link counts shared by campaign engagement and the funnel. */
export class LinkFunnelCountsResponse {
  @ApiInteger() generatedLinkCount: number;
  @ApiInteger() openedLinkCount: number;
  @ApiInteger() startedLinkCount: number;
  @ApiInteger() engagedLinkCount: number;
  @ApiInteger() leadSubmittedLinkCount: number;
  @ApiInteger() meetingClickedLinkCount: number;
  @ApiInteger() meetingBookedLinkCount: number;
  @ApiInteger() botScannedOnlyLinkCount: number;
}

/** Campaign engagement (docs/api.md §2.10). */
export class CampaignEngagementResponse extends LinkFunnelCountsResponse {
  @ApiProperty({ format: 'uuid' }) campaignId: string;
  @ApiInteger() activeLinkCount: number;
  @ApiInteger() pageViewCount: number;
  @ApiInteger() loadCount: number;
  @ApiInteger() uniqueVisitorCount: number;
  @ApiInteger() persistentUniqueVisitorCount: number;
  @ApiInteger() ephemeralPageViewCount: number;
  @ApiInteger() sessionCount: number;
  @ApiInteger() startedSessionCount: number;
  @ApiInteger() engagedSessionCount: number;
  @ApiProperty({ type: Number, nullable: true }) loadsPerUniqueVisitor: number | null;
  @ApiProperty({ enum: ['identified', 'estimated'] }) visitorCountMode: string;
  @ApiProperty(time) firstOpenedAt: string | null;
  @ApiProperty(time) lastOpenedAt: string | null;
  @ApiProperty(time) lastActivityAt: string | null;
  @ApiProperty({ format: 'date-time', description: AS_OF })
  asOf: string;
}

/** Custom Link session reference (docs/api.md §2.11): no transcripts, visitor ids or prospect data. */
export class SessionReferenceResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ enum: ['not_opened', 'opened', 'started', 'engaged'] }) stage: string;
  @ApiProperty(time) openedAt: string | null;
  @ApiProperty(time) startedAt: string | null;
  @ApiProperty(time) engagedAt: string | null;
  @ApiProperty(time) endedAt: string | null;
  @ApiProperty() analysisAvailable: boolean;
}

export class SessionReferenceListResponse {
  @ApiProperty({ type: [SessionReferenceResponse] }) sessions: SessionReferenceResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
}

export class FunnelRatesResponse {
  @ApiProperty() opened: number;
  @ApiProperty() started: number;
  @ApiProperty() engaged: number;
  @ApiProperty() leadSubmitted: number;
  @ApiProperty() meetingBooked: number;
}

export class FunnelSessionsResponse {
  @ApiInteger() total: number;
  @ApiInteger() qualified: number;
  @ApiInteger() booked: number;
  @ApiInteger() highIntent: number;
}

/** GET /api/v1/analytics/funnel (docs/api.md §2.15, §6.7). */
export class FunnelResponse extends LinkFunnelCountsResponse {
  @ApiProperty({ type: FunnelRatesResponse }) rates: FunnelRatesResponse;
  @ApiProperty({ type: FunnelSessionsResponse }) sessions: FunnelSessionsResponse;
}
