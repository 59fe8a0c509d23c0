import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { EngagementRepository, type EarliestEventRow } from './engagement.repository';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/** The earliest human event of one type that tracking observed of a session through one link. */
export type ObservedLinkEvent = EarliestEventRow;

/** What tracking observed of sessions, for the sessions module's detail. */
@Injectable()
export class SessionObservations {
  constructor(
    private readonly engagement: EngagementRepository,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
  ) {}

  /** The earliest human event of each type per link of the session, oldest first; read in `tx` when given. */
  of(organizationId: string, sessionId: string, tx?: EntityManager): Promise<ObservedLinkEvent[]> {
    return this.engagement.earliestEventsOfSession(organizationId, sessionId, tx);
  }

  /** The campaign of a link a session was observed through: null when unfiled or gone. */
  campaignOf(organizationId: string, linkId: string, tx?: EntityManager): Promise<string | null> {
    return this.links.campaignOf(organizationId, linkId, tx);
  }
}
