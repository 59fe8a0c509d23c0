import { ApiProperty } from '@nestjs/swagger';
import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { isoOrNull } from '../../../common/validation/timestamps';
import type { AccountRow } from '../accounts.repository';
import type { AccountLinkFigures } from '../account-links';
import { ApiInteger } from '../../../common/http/api-integer';

/** An account's engagement (docs/api.md §2.5): its Custom Links counted as campaign engagement counts (§6.5). */
export class AccountEngagementResponse {
  @ApiInteger({ description: 'Custom Links whose account domain is the account.' }) linkCount: number;
  @ApiInteger({ description: 'Of them, at stage opened or later.' }) openedLinkCount: number;
  @ApiInteger({ description: 'Of them, at stage engaged.' }) engagedLinkCount: number;
  @ApiInteger() leadSubmittedLinkCount: number;
  @ApiInteger() meetingBookedLinkCount: number;
  @ApiInteger({ description: "Sum of the links' uniqueVisitorCount." }) uniqueVisitorCount: number;
  @ApiInteger({ description: "Sum of the links' sessionCount." }) sessionCount: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The latest over the links.' })
  lastActivityAt: string | null;
}

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
  @ApiProperty({
    type: AccountEngagementResponse,
    description: "Its Custom Links' engagement, computed when read (it does not move updatedAt).",
  })
  engagement: AccountEngagementResponse;
}

export class AccountListResponse {
  @ApiProperty({ type: [AccountResponse] }) accounts: AccountResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

/** An account without links: zeros and no activity. */
const NO_LINKS: AccountLinkFigures = {
  links: 0,
  opened: 0,
  engaged: 0,
  leadSubmitted: 0,
  meetingBooked: 0,
  uniqueVisitors: 0,
  sessions: 0,
  lastActivityAt: null,
};

export function toAccountResponse(row: AccountRow, links: AccountLinkFigures = NO_LINKS): AccountResponse {
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
    engagement: {
      linkCount: links.links,
      openedLinkCount: links.opened,
      engagedLinkCount: links.engaged,
      leadSubmittedLinkCount: links.leadSubmitted,
      meetingBookedLinkCount: links.meetingBooked,
      uniqueVisitorCount: links.uniqueVisitors,
      sessionCount: links.sessions,
      lastActivityAt: isoOrNull(links.lastActivityAt),
    },
  };
}
