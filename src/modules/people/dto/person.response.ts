import { ApiProperty } from '@nestjs/swagger';
import { PaginationResponse } from '../../../common/pagination/pagination.response';
import { isoOrNull } from '../../../common/validation/timestamps';
import type { PersonRow } from '../people.repository';
import { ApiInteger } from '../../../common/http/api-integer';

const nullableString = { type: String, nullable: true } as const;

/** Person (docs/api.md §2.4). */
export class PersonResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Lower-cased email; one person per email per organization.' }) email: string;
  @ApiProperty(nullableString) name: string | null;
  @ApiProperty(nullableString) phone: string | null;
  @ApiProperty(nullableString) business: string | null;
  @ApiInteger() totalSessions: number;
  @ApiProperty({ format: 'date-time' }) firstSeenAt: string;
  @ApiProperty({ format: 'date-time' }) lastSeenAt: string;
  @ApiInteger() totalTimeSpentSeconds: number;
  @ApiProperty(nullableString) firstSource: string | null;
  @ApiProperty(nullableString) lastSource: string | null;
  @ApiProperty(nullableString) lastLocation: string | null;
  @ApiProperty({ enum: ['qualified', 'unqualified'], nullable: true, type: String }) qualificationStatus: string | null;
  @ApiProperty({ enum: ['high', 'medium', 'low', 'none'], nullable: true, type: String }) buyingIntent: string | null;
  @ApiProperty(nullableString) accountDomain: string | null;
  @ApiProperty(nullableString) summaryMarkdown: string | null;
  @ApiProperty(nullableString) qualificationRationale: string | null;
  @ApiProperty({ enum: ['automatic', 'manual'], nullable: true, type: String }) qualificationSource: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) qualificationAssessedAt: string | null;
  @ApiProperty(nullableString) qualificationRubricVersionId: string | null;
  @ApiProperty({ enum: ['low', 'medium', 'high'] }) overallIntent: string;
  @ApiProperty({ minimum: 0, maximum: 3 }) intentScore: number;
  @ApiProperty({ format: 'date-time' }) intentCalculatedAt: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Moved by every change this resource shows (rollups, intent); what updated_since compares.',
  })
  updatedAt: string;
}

export class PeopleListResponse {
  @ApiProperty({ type: [PersonResponse] }) people: PersonResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination: PaginationResponse;
}

export function toPersonResponse(row: PersonRow): PersonResponse {
  return {
    id: row.id,
    email: row.email_key,
    name: row.name,
    phone: row.phone,
    business: row.business,
    totalSessions: row.total_sessions,
    firstSeenAt: row.first_seen_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
    totalTimeSpentSeconds: Number(row.total_time_spent_seconds),
    firstSource: row.first_source,
    lastSource: row.last_source,
    lastLocation: row.last_location,
    qualificationStatus: row.qualification_status,
    buyingIntent: row.buying_intent,
    accountDomain: row.account_domain,
    summaryMarkdown: row.summary_markdown,
    qualificationRationale: row.qualification_rationale,
    qualificationSource: row.qualification_source,
    qualificationAssessedAt: isoOrNull(row.qualification_assessed_at),
    qualificationRubricVersionId: row.qualification_rubric_version_id,
    overallIntent: row.overall_intent,
    intentScore: row.intent_score,
    intentCalculatedAt: row.intent_calculated_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
