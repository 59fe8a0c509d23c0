import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { EngagementRepository, type EarliestEventRow } from './engagement.repository';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/**
 * The earliest human event of one type that tracking observed of a session through one link, with
 * the link's campaign (null when unfiled or when the link is gone).
 */
export type ObservedLinkEvent = EarliestEventRow & { campaign_id: string | null };

/** What tracking observed of sessions, for the sessions module's detail. */
@Injectable()
export class SessionObservations {
  constructor(
    private readonly engagement: EngagementRepository,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
  ) {}

  /** The earliest human event of each type per link of the session, with that link's campaign, oldest first; read in `tx` when given. */
  async of(organizationId: string, sessionId: string, tx?: EntityManager): Promise<ObservedLinkEvent[]> {
    const events = await this.engagement.earliestEventsOfSession(organizationId, sessionId, tx);
    const campaigns = await this.links.campaignsOf(
      organizationId,
      [...new Set(events.map((event) => event.custom_link_id))],
      tx,
    );
    return events.map((event) => ({ ...event, campaign_id: campaigns.get(event.custom_link_id) ?? null }));
  }
}
