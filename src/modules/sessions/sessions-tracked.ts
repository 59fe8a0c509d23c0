import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { TRACKED_SESSIONS, type TrackedSessions } from '../engagement';
import { SessionsRepository } from './sessions.repository';

/** Sessions as engagement reads them (session references). */
@Injectable()
@ImplementsPort(TRACKED_SESSIONS)
export class SessionsTracked implements TrackedSessions {
  constructor(private readonly sessions: SessionsRepository) {}

  visibleAmong(organizationId: string, sessionIds: string[]): Promise<Set<string>> {
    return this.sessions.visibleAmong(organizationId, sessionIds);
  }
}
