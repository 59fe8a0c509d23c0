import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { TRACKED_SESSIONS, type FunnelSessions, type TrackedSessions } from '../engagement';
import { SessionsRepository } from './sessions.repository';

/** Sessions as engagement reads them (session references, the funnel). */
@Injectable()
@ImplementsPort(TRACKED_SESSIONS)
export class SessionsTracked implements TrackedSessions {
  constructor(private readonly sessions: SessionsRepository) {}

  visibleAmong(organizationId: string, sessionIds: string[]): Promise<Set<string>> {
    return this.sessions.visibleAmong(organizationId, sessionIds);
  }

  /** A session is high intent when its person is (the people module's overall intent). */
  async funnel(organizationId: string, linkIds: string[], sessionIds: string[]): Promise<FunnelSessions> {
    const counts = await this.sessions.funnelCounts(organizationId, linkIds, sessionIds);
    return { total: counts.total, qualified: counts.qualified, booked: counts.booked, highIntent: counts.high_intent };
  }
}
