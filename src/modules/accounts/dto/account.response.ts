import { ApiProperty } from '@nestjs/swagger';
import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import type { AccountRow } from '../accounts.repository';
import { ApiInteger } from '../../../common/http/api-integer';

/** Account (docs/api.md §2.5). */
export class AccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Registrable business email domain.' }) accountDomain: string;
  @ApiProperty({ type: String, nullable: true }) companyName: string | null;
  @ApiInteger() totalUsers: number;
  @ApiInteger() totalSessions: number;
  @ApiInteger() bookedSessions: number;
  @ApiInteger() highIntentUsers: number;
  @ApiInteger() qualifiedUsers: number;
  @ApiInteger() totalTimeSpentSeconds: number;
  @ApiProperty({ format: 'date-time' }) lastSeenAt: string;
  @ApiProperty({ type: String, nullable: true }) summaryMarkdown: string | null;
  @ApiProperty({
    format: 'date-time',
    description: 'Moved by every change this resource shows (its rollup); what updated_since compares.',
  })
  updatedAt: string;
}

export class AccountListResponse {
  @ApiProperty({ type: [AccountResponse] }) accounts: AccountResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

export function toAccountResponse(row: AccountRow): AccountResponse {
  return {
    id: row.id,
    accountDomain: row.account_domain,
    companyName: row.company_name,
    totalUsers: row.total_users,
    totalSessions: row.total_sessions,
    bookedSessions: row.booked_sessions,
    highIntentUsers: row.high_intent_users,
    qualifiedUsers: row.qualified_users,
    totalTimeSpentSeconds: Number(row.total_time_spent_seconds),
    lastSeenAt: row.last_seen_at.toISOString(),
    summaryMarkdown: row.summary_markdown,
    updatedAt: row.updated_at.toISOString(),
  };
}
