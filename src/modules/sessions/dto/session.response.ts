import { ApiProperty } from '@nestjs/swagger';
import { PaginationResponse } from '../../../common/pagination/pagination.response';
import type { SessionDetailRow, SessionRow } from '../sessions.repository';
import type { Objection, SessionDetails, TimelineEvent, Topic, Tracking } from '../rules/session-record';
import { ApiInteger } from '../../../common/http/api-integer';

const text = { type: String, nullable: true } as const;
const time = { type: String, format: 'date-time', nullable: true } as const;
const score = { type: Number, nullable: true } as const;

/** Session list item (docs/api.md §2.1). */
export class SessionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty(text) displayId: string | null;
  @ApiProperty({ format: 'date-time' }) startTime: string;
  @ApiProperty(time) endTime: string | null;
  @ApiProperty(text) sessionType: string | null;
  @ApiProperty(text) email: string | null;
  @ApiProperty(text) name: string | null;
  @ApiProperty(text) business: string | null;
  @ApiProperty({ ...text, enum: ['qualified', 'unqualified'], description: "The person's effective qualification." })
  qualificationStatus: string | null;
  @ApiProperty({ ...text, enum: ['high', 'medium', 'low', 'none'] }) buyingIntent: string | null;
  @ApiProperty({ ...text, enum: ['booked', 'not_booked'] }) bookedStatus: string | null;
  @ApiProperty(text) sessionStatus: string | null;
  @ApiProperty(text) sentiment: string | null;
  @ApiProperty(text) engagementLevel: string | null;
  @ApiProperty(text) primaryIntent: string | null;
  @ApiProperty(text) summaryMarkdown: string | null;
  @ApiProperty(text) utmSource: string | null;
  @ApiProperty(text) device: string | null;
  @ApiProperty(text) geoCountry: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) personId: string | null;
  @ApiProperty(text) qualificationRationale: string | null;
  @ApiProperty({ ...text, enum: ['automatic', 'manual'] }) qualificationSource: string | null;
  @ApiProperty(time) qualificationAssessedAt: string | null;
  @ApiProperty(text) qualificationRubricVersionId: string | null;
  @ApiProperty({ ...text, enum: ['low', 'medium', 'high'] }) overallIntent: string | null;
  @ApiProperty({ ...score, minimum: 0, maximum: 3 }) intentScore: number | null;
  @ApiProperty(time) intentCalculatedAt: string | null;
  @ApiProperty({
    format: 'date-time',
    description:
      "Moved by every change of the session's own fields (re-ingestion, its person assignment and effective qualification); what updated_since compares. overallIntent, intentScore and intentCalculatedAt are the person's: they move the person's updatedAt, not the session's (sync people for them).",
  })
  updatedAt: string;
}

export class TimelineEventResponse {
  @ApiProperty(text) milestoneType: string | null;
  @ApiProperty(text) description: string | null;
  @ApiInteger({ nullable: true }) timestampOffsetS: number | null;
  @ApiProperty({ type: [String] }) featuresMentioned: string[];
  @ApiInteger({ nullable: true }) sequenceOrder: number | null;
}

export class TopicResponse {
  @ApiProperty(text) topic: string | null;
  @ApiProperty(text) interestLevel: string | null;
  @ApiInteger({ nullable: true }) timeDiscussedS: number | null;
  @ApiProperty(text) outcome: string | null;
}

export class ObjectionResponse {
  @ApiProperty(text) objectionType: string | null;
  @ApiProperty(text) description: string | null;
  @ApiProperty(text) severity: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) handled: boolean | null;
  @ApiProperty(text) resolutionNotes: string | null;
  @ApiInteger({ nullable: true }) timestampOffsetS: number | null;
}

export class TrackingResponse {
  @ApiProperty(text) utmSource: string | null;
  @ApiProperty(text) utmMedium: string | null;
  @ApiProperty(text) utmCampaign: string | null;
  @ApiProperty(text) utmTerm: string | null;
  @ApiProperty(text) utmContent: string | null;
  @ApiProperty(text) referrerUrl: string | null;
  @ApiProperty(text) landingPageUrl: string | null;
  @ApiProperty(text) device: string | null;
  @ApiProperty(text) browser: string | null;
  @ApiProperty(text) os: string | null;
  @ApiProperty(text) geoCountry: string | null;
  @ApiProperty(text) geoRegion: string | null;
  @ApiProperty(text) geoCity: string | null;
}

export class LifecycleEventResponse {
  @ApiProperty() eventType: string;
  @ApiProperty({ format: 'date-time' }) observedAt: string;
}

export class LifecycleResponse {
  @ApiProperty({ enum: ['not_opened', 'opened', 'started', 'engaged'] }) stage: string;
  @ApiProperty({ type: [LifecycleEventResponse] }) events: LifecycleEventResponse[];
}

/** Session detail (docs/api.md §2.2). */
export class SessionDetailResponse extends SessionResponse {
  @ApiProperty(text) phone: string | null;
  @ApiProperty(text) qualificationReason: string | null;
  @ApiProperty(text) qualificationStage: string | null;
  @ApiProperty(text) budgetRange: string | null;
  @ApiProperty(text) buyingTimeline: string | null;
  @ApiProperty(text) decisionMakerRole: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) isDecisionMaker: boolean | null;
  @ApiProperty({ ...score, minimum: 0, maximum: 1 }) confidenceScore: number | null;
  @ApiProperty({ type: [String] }) nextSteps: string[];
  @ApiProperty({ type: [String] }) summaryBullets: string[];
  @ApiInteger({ nullable: true }) audioDurationSeconds: number | null;
  @ApiProperty({ type: [TimelineEventResponse] }) timelineEvents: TimelineEvent[];
  @ApiProperty({ type: [TopicResponse] }) topics: Topic[];
  @ApiProperty({ type: [ObjectionResponse] }) objections: Objection[];
  @ApiProperty({ type: TrackingResponse }) tracking: Tracking;
  @ApiProperty({ ...text, format: 'uuid' }) customLinkId: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) customLinkCampaignId: string | null;
  @ApiProperty({
    type: LifecycleResponse,
    nullable: true,
    description: 'Observed Custom Link lifecycle; null without a Custom Link.',
  })
  lifecycle: LifecycleResponse | null;
}

export class SessionListResponse {
  @ApiProperty({ type: [SessionResponse] }) sessions: SessionResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination: PaginationResponse;
}

/** `row` holds its person's intent (all null without a person). */
export function toSessionResponse(row: SessionRow): SessionResponse {
  return {
    id: row.id,
    displayId: row.display_id,
    startTime: row.start_time,
    endTime: row.end_time,
    sessionType: row.session_type,
    email: row.email,
    name: row.name,
    business: row.business,
    qualificationStatus: row.effective_qualification_status,
    buyingIntent: row.buying_intent,
    bookedStatus: row.booked_status,
    sessionStatus: row.session_status,
    sentiment: row.sentiment,
    engagementLevel: row.engagement_level,
    primaryIntent: row.primary_intent,
    summaryMarkdown: row.summary_markdown,
    utmSource: row.utm_source,
    device: row.device,
    geoCountry: row.geo_country,
    personId: row.person_id,
    qualificationRationale: row.qualification_rationale,
    qualificationSource: row.qualification_source,
    qualificationAssessedAt: row.qualification_assessed_at,
    qualificationRubricVersionId: row.qualification_rubric_version_id,
    overallIntent: row.overall_intent,
    intentScore: row.intent_score,
    intentCalculatedAt: row.intent_calculated_at,
    updatedAt: row.updated_at,
  };
}

export function toSessionDetailResponse(
  row: SessionDetailRow,
  link: { customLinkId: string | null; customLinkCampaignId: string | null; lifecycle: LifecycleResponse | null },
): SessionDetailResponse {
  const details: SessionDetails = row.details;
  // Object.assign, not `{ ...toSessionResponse(row), phone, … }`: V8 gives a spread followed by more
  // properties a new hidden class on every call (about 40 µs per detail, and garbage for the old generation).
  return Object.assign(toSessionResponse(row), {
    phone: row.phone,
    qualificationReason: details.qualificationReason,
    qualificationStage: details.qualificationStage,
    budgetRange: details.budgetRange,
    buyingTimeline: details.buyingTimeline,
    decisionMakerRole: details.decisionMakerRole,
    isDecisionMaker: details.isDecisionMaker,
    confidenceScore: details.confidenceScore,
    nextSteps: details.nextSteps,
    summaryBullets: details.summaryBullets,
    audioDurationSeconds: details.audioDurationSeconds,
    timelineEvents: details.timelineEvents,
    topics: details.topics,
    objections: details.objections,
    tracking: row.tracking,
    customLinkId: link.customLinkId,
    customLinkCampaignId: link.customLinkCampaignId,
    lifecycle: link.lifecycle,
  });
}
