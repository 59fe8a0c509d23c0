import { ApiProperty } from '@nestjs/swagger';
import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import type { CustomLinkRow } from '../custom-links.repository';
import { AS_OF, engagementOf, type StoredEngagement } from '../../engagement';
import type { LinkUrls } from '../link-urls';
import { ApiInteger } from '../../../common/http/api-integer';
import { accessStateOf, ACCESS_STATES, type AccessState } from '../rules/link-access';

const text = { type: String, nullable: true } as const;
const time = { type: String, format: 'date-time', nullable: true } as const;

/** Bot opens of a link by reason: a HEAD request, a prefetch header, a known link scanner, a bot User-Agent. */
export class BotOpensResponse {
  @ApiInteger({ minimum: 0 }) user_agent: number;
  @ApiInteger({ minimum: 0 }) prefetch: number;
  @ApiInteger({ minimum: 0 }) head_request: number;
  @ApiInteger({ minimum: 0 }) scanner: number;
}

/** Link engagement rollup (docs/api.md §2.7). */
export class LinkEngagementResponse {
  @ApiProperty({ enum: ['not_opened', 'opened', 'started', 'engaged'] }) stage: string;
  @ApiProperty() openObserved: boolean;
  @ApiProperty() botScannedOnly: boolean;
  @ApiProperty({
    type: BotOpensResponse,
    description: 'Bot opens by reason (GET /api/v1/custom-links/{link_id}/events tells them apart).',
  })
  botOpens: BotOpensResponse;
  @ApiInteger({
    description:
      "Opens by the organization's own people (internal traffic: its IP ranges, visitor ids or User-Agents, the preview URL, or events sent with internal: true); they move nothing else.",
  })
  internalOpens: number;
  @ApiInteger() pageViewCount: number;
  @ApiInteger() loadCount: number;
  @ApiInteger() uniqueVisitorCount: number;
  @ApiInteger() persistentUniqueVisitorCount: number;
  @ApiInteger() ephemeralPageViewCount: number;
  @ApiProperty({ type: Number, nullable: true }) loadsPerUniqueVisitor: number | null;
  @ApiProperty({ enum: ['identified', 'estimated'] }) visitorCountMode: string;
  @ApiProperty(time) firstOpenedAt: string | null;
  @ApiProperty(time) lastOpenedAt: string | null;
  @ApiInteger() sessionCount: number;
  @ApiInteger() startedSessionCount: number;
  @ApiInteger() engagedSessionCount: number;
  @ApiProperty() leadSubmitted: boolean;
  @ApiProperty() meetingClicked: boolean;
  @ApiProperty() meetingBooked: boolean;
  @ApiProperty(time) lastActivityAt: string | null;
  @ApiProperty(text) lastActivityType: string | null;
  @ApiProperty(time) firstStartedAt: string | null;
  @ApiProperty(time) firstEngagedAt: string | null;
  @ApiProperty(time) firstLeadSubmittedAt: string | null;
  @ApiProperty(time) firstMeetingClickedAt: string | null;
  @ApiProperty(time) firstMeetingBookedAt: string | null;
  @ApiProperty({ format: 'date-time', description: AS_OF })
  asOf: string;
}

export class ThumbnailErrorResponse {
  @ApiProperty() code: string;
  @ApiProperty() message: string;
}

/** Custom Link (docs/api.md §2.6). */
export class CustomLinkResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() displayName: string;
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'Published experience URL: {PUBLIC_BASE_URL}/l/{slug}.' }) url: string;
  @ApiProperty({
    description:
      "The link's URL for the organization's own people: {PUBLIC_BASE_URL}/l/{slug}?preview=<token>. It opens like the link (the experience URL gains preview=1), and its opens are internal (reason preview).",
  })
  previewUrl: string;
  @ApiProperty({
    enum: ['not_requested', 'provided', 'queued', 'processing', 'generated', 'fallback', 'failed', 'cancelled'],
  })
  thumbnailStatus: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: LinkEngagementResponse }) engagement: LinkEngagementResponse;
  @ApiProperty(text) externalId: string | null;
  @ApiProperty(text) firstName: string | null;
  @ApiProperty(text) lastName: string | null;
  @ApiProperty(text) email: string | null;
  @ApiProperty(text) phone: string | null;
  @ApiProperty(text) role: string | null;
  @ApiProperty(text) company: string | null;
  @ApiProperty(text) context: string | null;
  @ApiProperty(text) shareTitle: string | null;
  @ApiProperty(text) shareDescription: string | null;
  @ApiProperty(text) shareThumbnailUrl: string | null;
  @ApiProperty(text) prospectLogoUrl: string | null;
  @ApiProperty(text) prospectDomain: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) campaignId: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) jobId: string | null;
  @ApiInteger() thumbnailAttempts: number;
  @ApiProperty({ type: ThumbnailErrorResponse, nullable: true }) thumbnailError: ThumbnailErrorResponse | null;
  @ApiProperty({ ...time, description: 'When the link stops leading to the experience; null never.' })
  expiresAt: string | null;
  @ApiInteger({
    minimum: 1,
    maximum: 1_000_000,
    nullable: true,
    description: 'How many human, external opens the link leads to the experience; null: no cap.',
  })
  maxHumanOpens: number | null;
  @ApiProperty({
    ...text,
    format: 'uri',
    description: 'Where an expired or capped link redirects; null: it answers 410.',
  })
  expiredRedirectUrl: string | null;
  @ApiProperty({
    enum: ACCESS_STATES,
    description:
      'Read-only. inactive (active is false), expired (past expiresAt), capped (maxHumanOpens reached) or open; the first that applies in that order.',
  })
  accessState: AccessState;
}

export class CustomLinkListResponse {
  @ApiProperty({ type: [CustomLinkResponse] }) customLinks: CustomLinkResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

/** The stored rollup of a link (its engagement columns). */
export function storedEngagementOf(row: CustomLinkRow): StoredEngagement {
  return {
    openObserved: row.open_observed,
    botOpenCount: row.bot_open_count,
    botOpens: row.bot_opens,
    internalOpenCount: row.internal_open_count,
    loadCount: row.load_count,
    pageViewCount: row.page_view_count,
    persistentUniqueVisitorCount: row.persistent_visitor_count,
    ephemeralPageViewCount: row.ephemeral_page_view_count,
    sessionCount: row.session_count,
    startedSessionCount: row.started_session_count,
    engagedSessionCount: row.engaged_session_count,
    firstOpenedAt: row.first_opened_at,
    lastOpenedAt: row.last_opened_at,
    firstStartedAt: row.first_started_at,
    firstEngagedAt: row.first_engaged_at,
    firstLeadSubmittedAt: row.first_lead_submitted_at,
    firstMeetingClickedAt: row.first_meeting_clicked_at,
    firstMeetingBookedAt: row.first_meeting_booked_at,
    lastActivityAt: row.last_activity_at,
    lastActivityType: row.last_activity_type,
  };
}

/**
 * A link as its GET returns it; `asOf`: how far the fold had come before the row was read
 * (FoldProgress); `now`: the time its access state is judged at (Clock).
 */
export function toCustomLinkResponse(row: CustomLinkRow, urls: LinkUrls, asOf: Date, now: Date): CustomLinkResponse {
  return {
    id: row.id,
    displayName: row.display_name,
    active: row.active,
    url: urls.url(row.slug),
    previewUrl: urls.previewUrl(row.id, row.slug),
    thumbnailStatus: row.thumbnail_status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    engagement: { ...engagementOf(storedEngagementOf(row)), asOf: asOf.toISOString() },
    externalId: row.external_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    company: row.company,
    context: row.context,
    shareTitle: row.share_title,
    shareDescription: row.share_description,
    shareThumbnailUrl: row.share_thumbnail_url,
    prospectLogoUrl: row.prospect_logo_url,
    prospectDomain: row.prospect_domain,
    campaignId: row.campaign_id,
    jobId: row.job_id,
    thumbnailAttempts: row.thumbnail_attempts,
    thumbnailError: row.thumbnail_error_code
      ? { code: row.thumbnail_error_code, message: row.thumbnail_error_message ?? '' }
      : null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    maxHumanOpens: row.max_human_opens,
    expiredRedirectUrl: row.expired_redirect_url,
    accessState: accessStateOf(row, now),
  };
}
