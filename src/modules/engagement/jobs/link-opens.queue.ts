import type { BotReason } from '../rules/bot-detection';
import type { EventContext } from '../rules/event-context';
import type { InternalReason } from '../../settings';

export const LINK_OPENS_QUEUE = 'link-opens';
export const RECORD_OPEN = 'record-open';

/** An open seen at GET /l/{slug}, recorded off the request path. */
export interface RecordOpenPayload {
  organizationId: string;
  linkId: string;
  eventId: string;
  occurredAt: string;
  bot: boolean;
  /** Absent from opens queued before reasons were recorded. */
  botReason?: BotReason | null;
  /** Derived on the request path (the client address is looked up there and goes no further); absent from opens queued before. */
  context?: EventContext;
  /** Why the open is internal (decided on the request path, where its address is known); absent from opens queued before. */
  internalReason?: InternalReason | null;
  /** The link was expired or capped: logged as a refused_open, which moves nothing (issue 36). */
  refused?: boolean;
}

/** Only human, external opens count toward a link's maxHumanOpens (docs/api.md §6.1). */
export const countsTowardCap = (open: Pick<RecordOpenPayload, 'bot' | 'internalReason'>): boolean =>
  !open.bot && (open.internalReason ?? null) === null;
