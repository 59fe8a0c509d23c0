import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/**
 * What tracking observed of sessions, for the sessions module's detail. The observed events themselves
 * are engagement's read model session_observations, which the detail joins.
 */
@Injectable()
export class SessionObservations {
  constructor(@InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks) {}

  /** The campaign of a link a session was observed through: null when unfiled or gone. */
  campaignOf(organizationId: string, linkId: string, tx?: EntityManager): Promise<string | null> {
    return this.links.campaignOf(organizationId, linkId, tx);
  }
}
