import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { ACTIVITY_KINDS, type ActivityKind, type ActivityRow } from '../account-activity';

const Nullable = (format: string | undefined, description: string) =>
  ApiProperty({ type: String, ...(format && { format }), nullable: true, description });

/** One item of an account's activity (docs/api.md §4.2): a session of one of its people, or an event of one of its links. */
export class AccountActivityItemResponse {
  @ApiProperty({ enum: ACTIVITY_KINDS }) kind: string;
  @ApiProperty({ format: 'date-time', description: "A session's start, an event's occurredAt." })
  occurredAt: string;
  @Nullable('uuid', "The session; an event's when it carries one.") sessionId: string | null;
  @Nullable('uuid', "The session's person; an event's when its session is a visible one with a person.")
  personId: string | null;
  @Nullable('uuid', "The event's link; a session's when it came through one.") customLinkId: string | null;
  @Nullable(undefined, "An event's eventId; null for a session.") eventId: string | null;
  @Nullable(undefined, "An event's type (docs/api.md §6.2); null for a session.") type: string | null;
}

export class AccountActivityListResponse {
  @ApiProperty({ type: [AccountActivityItemResponse] }) activity: AccountActivityItemResponse[];
  @ApiInteger() limit: number;
  @ApiNextCursor() nextCursor: string | null;
}

export function toActivityItemResponse(item: ActivityRow & { kind: ActivityKind }): AccountActivityItemResponse {
  return {
    kind: item.kind,
    occurredAt: item.occurred_at.toISOString(),
    sessionId: item.session_id,
    personId: item.person_id,
    customLinkId: item.custom_link_id,
    eventId: item.event_id,
    type: item.type,
  };
}
