import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { TRACKED_SESSIONS, type FunnelSessions, type TrackedSessions } from '../engagement';
import { PeopleService } from '../people';
import { SessionsRepository } from './sessions.repository';

/** Sessions as engagement reads them (session references, the funnel). */
@Injectable()
@ImplementsPort(TRACKED_SESSIONS)
export class SessionsTracked implements TrackedSessions {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly people: PeopleService,
  ) {}

  visibleAmong(organizationId: string, sessionIds: string[]): Promise<Set<string>> {
    return this.sessions.visibleAmong(organizationId, sessionIds);
  }

  /** A session is high intent when its person is (the people module's overall intent). */
  async funnel(organizationId: string, linkIds: string[], sessionIds: string[]): Promise<FunnelSessions> {
    const perPerson = await this.sessions.countsPerPerson(organizationId, linkIds, sessionIds);
    const intents = await this.people.intentsOf(
      organizationId,
      perPerson.flatMap((counts) => (counts.person_id === null ? [] : [counts.person_id])),
    );
    const funnel: FunnelSessions = { total: 0, qualified: 0, booked: 0, highIntent: 0 };
    for (const counts of perPerson) {
      funnel.total += counts.total;
      funnel.qualified += counts.qualified;
      funnel.booked += counts.booked;
      if (counts.person_id !== null && intents.get(counts.person_id)?.overallIntent === 'high')
        funnel.highIntent += counts.total;
    }
    return funnel;
  }
}
