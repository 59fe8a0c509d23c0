import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import { CustomLinkResponse } from '../../custom-links';
import type { EventType } from '../../engagement';
import { PersonResponse } from '../../people';
import { SessionDetailResponse, TranscriptResponse } from '../../sessions';

/** The most sessions (each with its transcript) an answer holds; the newest come first. */
export const MAX_SUBJECT_SESSIONS = 100;
/** The most Custom Links (each with its event counts) an answer holds; the newest come first. */
export const MAX_SUBJECT_LINKS = 1000;

const count = (description: string) => ApiInteger({ minimum: 0, description });

/** A link's logged events of each type (docs/api.md §6.2). */
export class EventCountsByTypeResponse implements Record<EventType, number> {
  @count('Opens.') open: number;
  @count('Page views.') page_view: number;
  @count('Sessions started.') session_started: number;
  @count('Sessions engaged.') session_engaged: number;
  @count('Sessions ended.') session_ended: number;
  @count('Leads submitted.') lead_submitted: number;
  @count('Meeting links clicked.') meeting_clicked: number;
  @count('Meetings booked.') meeting_booked: number;
  @count('Opens of the link once expired or capped (refused).') refused_open: number;
}

/** What a link's event log holds, counted (docs/api.md §18.4): never the events themselves. */
export class SubjectLinkEventsResponse {
  @ApiProperty({ format: 'uuid' }) customLinkId: string;
  @count('Every logged event of the link, folded or not, bots and internal traffic included.') total: number;
  @ApiProperty({ type: EventCountsByTypeResponse }) byType: EventCountsByTypeResponse;
  @count('Of the total, events flagged as bots (§6.3).') bot: number;
  @count('Of the total, internal traffic (§6.8).') internal: number;
}

/** Everything the organization holds about one email (docs/api.md §18.4). */
export class SubjectAccessResponse {
  @ApiProperty({ description: 'The email asked about, trimmed and lower-cased: the key everything is matched by.' })
  email: string;

  @ApiProperty({
    type: PersonResponse,
    nullable: true,
    description: 'The person of that email, as GET /api/v1/people/{person_id} answers it; null when there is none.',
  })
  person: PersonResponse | null;

  @ApiProperty({
    type: [SessionDetailResponse],
    description: `Every session of that email, newest first, as GET /api/v1/sessions/{session_id} answers it, staging and not yet analyzed ones included (at most ${MAX_SUBJECT_SESSIONS}).`,
  })
  sessions: SessionDetailResponse[];

  @ApiProperty({
    type: [TranscriptResponse],
    description:
      'The transcripts of those sessions that have one, in their order, as GET /api/v1/sessions/{session_id}/transcript answers them. Not charged to the daily transcript quota.',
  })
  transcripts: TranscriptResponse[];

  @ApiProperty({
    type: [CustomLinkResponse],
    description: `Every Custom Link whose email is that email, case-insensitively, newest first, as GET /api/v1/custom-links/{link_id} answers it (at most ${MAX_SUBJECT_LINKS}).`,
  })
  customLinks: CustomLinkResponse[];

  @ApiProperty({
    type: [SubjectLinkEventsResponse],
    description: 'The event counts of each of those links, in their order (zeros for a link without events).',
  })
  linkEvents: SubjectLinkEventsResponse[];

  @ApiProperty({
    description: `True when the email has more than ${MAX_SUBJECT_SESSIONS} sessions or more than ${MAX_SUBJECT_LINKS} Custom Links: the lists then hold the newest only.`,
  })
  truncated: boolean;
}
