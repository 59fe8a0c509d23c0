import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  OptionalBoolean,
  OptionalChoice,
  OptionalInteger,
  OptionalNumber,
  OptionalObject,
  OptionalObjectList,
  OptionalText,
  OptionalTextList,
  OptionalTimestamp,
} from '../../../common/validation/field-decorators';
import { IsEmailAddress } from '../../../common/validation/email-address';
import { IsHttpUrl } from '../../../common/validation/http-url';
import { TimestampInput } from '../../../common/validation/timestamps';
import { IsUuidString } from '../../../common/validation/validators';
import { BUYING_INTENTS, QUALIFICATION_STATUSES } from '../../people';
import { ApiInteger } from '../../../common/http/api-integer';

const SHORT = 255;
const URL = 2048;
const LONG = 10_000;
const SUMMARY = 100_000;
const MAX_ITEMS = 1000;
const MAX_TRANSCRIPT_ENTRIES = 20_000;

export const QUALIFICATION_SOURCES = ['automatic', 'manual'] as const;
export const BOOKED_STATUSES = ['booked', 'not_booked'] as const;
export const ENVIRONMENTS = ['production', 'staging'] as const;
export const ANALYSIS_STATUSES = ['pending', 'analyzed'] as const;

export class TimelineEventInput {
  @OptionalText(SHORT) milestoneType?: string | null;
  @OptionalText(LONG) description?: string | null;
  @OptionalInteger(0) timestampOffsetS?: number | null;
  @OptionalTextList(MAX_ITEMS, SHORT) featuresMentioned?: string[] | null;
  @OptionalInteger(0) sequenceOrder?: number | null;
}

export class TopicInput {
  @OptionalText(SHORT) topic?: string | null;
  @OptionalText(SHORT) interestLevel?: string | null;
  @OptionalInteger(0) timeDiscussedS?: number | null;
  @OptionalText(LONG) outcome?: string | null;
}

export class ObjectionInput {
  @OptionalText(SHORT) objectionType?: string | null;
  @OptionalText(LONG) description?: string | null;
  @OptionalText(SHORT) severity?: string | null;
  @OptionalBoolean() handled?: boolean | null;
  @OptionalText(LONG) resolutionNotes?: string | null;
  @OptionalInteger(0) timestampOffsetS?: number | null;
}

/** An absolute http(s) URL, or '' for none (a browser reports no referrer as ''). */
const OptionalUrl = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uri',
      maxLength: URL,
      nullable: true,
      description: "An absolute http or https URL; '' for none.",
    }),
    IsOptional(),
    IsString(),
    MaxLength(URL),
    IsHttpUrl({ allowEmpty: true }),
  );

export class TrackingInput {
  @OptionalText(SHORT) utmSource?: string | null;
  @OptionalText(SHORT) utmMedium?: string | null;
  @OptionalText(SHORT) utmCampaign?: string | null;
  @OptionalText(SHORT) utmTerm?: string | null;
  @OptionalText(SHORT) utmContent?: string | null;
  @OptionalUrl() referrerUrl?: string | null;
  @OptionalUrl() landingPageUrl?: string | null;
  @OptionalText(SHORT) device?: string | null;
  @OptionalText(SHORT) browser?: string | null;
  @OptionalText(SHORT) os?: string | null;
  @OptionalText(SHORT) geoCountry?: string | null;
  @OptionalText(SHORT) geoRegion?: string | null;
  @OptionalText(SHORT) geoCity?: string | null;
}

export class TranscriptEntryInput {
  @ApiProperty({ maxLength: SHORT })
  @IsDefined()
  @IsString()
  @MaxLength(SHORT)
  speaker: string;

  @ApiProperty({ maxLength: LONG * 10 })
  @IsDefined()
  @IsString()
  @MaxLength(LONG * 10)
  text: string;

  @OptionalTimestamp() timestamp?: Date | null;

  @ApiInteger({ minimum: 0 })
  @IsDefined()
  @IsInt()
  @Min(0)
  sequenceNumber: number;
}

export class TranscriptInput {
  @ApiProperty({ type: [TranscriptEntryInput], maxItems: MAX_TRANSCRIPT_ENTRIES })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_TRANSCRIPT_ENTRIES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TranscriptEntryInput)
  entries: TranscriptEntryInput[];
}

/**
 * Body of PUT /api/v1/ingest/sessions/{session_id} (docs/api.md §13.1): the whole analysis of one
 * session. Only startTime is required; everything else absent or null is unknown.
 */
export class IngestSessionRequest {
  @OptionalText(SHORT) displayId?: string | null;

  @TimestampInput({ required: true }) startTime: Date;

  @OptionalTimestamp() endTime?: Date | null;
  @OptionalText(SHORT) sessionType?: string | null;

  @OptionalText(320)
  @IsEmailAddress()
  email?: string | null;

  @OptionalText(SHORT) name?: string | null;
  @OptionalText(SHORT) business?: string | null;
  @OptionalText(SHORT) phone?: string | null;
  @OptionalChoice(QUALIFICATION_STATUSES) qualificationStatus?: (typeof QUALIFICATION_STATUSES)[number] | null;
  @OptionalText(LONG) qualificationReason?: string | null;
  @OptionalText(LONG) qualificationRationale?: string | null;
  @OptionalChoice(QUALIFICATION_SOURCES) qualificationSource?: (typeof QUALIFICATION_SOURCES)[number] | null;
  @OptionalTimestamp() qualificationAssessedAt?: Date | null;
  @OptionalText(SHORT) qualificationRubricVersionId?: string | null;
  @OptionalText(SHORT) qualificationStage?: string | null;
  @OptionalChoice(BUYING_INTENTS) buyingIntent?: (typeof BUYING_INTENTS)[number] | null;
  @OptionalChoice(BOOKED_STATUSES) bookedStatus?: (typeof BOOKED_STATUSES)[number] | null;
  @OptionalText(SHORT) sessionStatus?: string | null;
  @OptionalText(SHORT) sentiment?: string | null;
  @OptionalText(SHORT) engagementLevel?: string | null;
  @OptionalText(SHORT) primaryIntent?: string | null;
  @OptionalText(SUMMARY) summaryMarkdown?: string | null;
  @OptionalText(SHORT) utmSource?: string | null;
  @OptionalText(SHORT) device?: string | null;
  @OptionalText(SHORT) geoCountry?: string | null;
  @OptionalText(SHORT) budgetRange?: string | null;
  @OptionalText(SHORT) buyingTimeline?: string | null;
  @OptionalText(SHORT) decisionMakerRole?: string | null;
  @OptionalBoolean() isDecisionMaker?: boolean | null;
  @OptionalNumber(0, 1) confidenceScore?: number | null;
  @OptionalTextList(MAX_ITEMS, LONG) nextSteps?: string[] | null;
  @OptionalTextList(MAX_ITEMS, LONG) summaryBullets?: string[] | null;
  @OptionalInteger(0) audioDurationSeconds?: number | null;
  @OptionalObjectList(() => TimelineEventInput, MAX_ITEMS) timelineEvents?: TimelineEventInput[] | null;
  @OptionalObjectList(() => TopicInput, MAX_ITEMS) topics?: TopicInput[] | null;
  @OptionalObjectList(() => ObjectionInput, MAX_ITEMS) objections?: ObjectionInput[] | null;
  @OptionalObject(() => TrackingInput) tracking?: TrackingInput | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @IsUuidString()
  customLinkId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @IsUuidString()
  customLinkCampaignId?: string | null;

  @OptionalChoice(ENVIRONMENTS) environment?: (typeof ENVIRONMENTS)[number] | null;
  @OptionalChoice(ANALYSIS_STATUSES) analysisStatus?: (typeof ANALYSIS_STATUSES)[number] | null;
  @OptionalObject(() => TranscriptInput) transcript?: TranscriptInput | null;
}

/** 200 answer of an ingestion. */
export class IngestSessionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) personId: string | null;
  @ApiProperty({ enum: ANALYSIS_STATUSES }) analysisStatus: string;
}
