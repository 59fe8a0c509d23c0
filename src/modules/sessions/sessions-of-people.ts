import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ImplementsPort } from '../../common/wiring/port';
import { PERSON_SESSIONS, type PersonSessions, type SessionAssignment, type SessionFacts } from '../people';
import { SessionsRepository } from './sessions.repository';

/** Sessions as the people rollup sees them: read by email key, pointed at their person. */
@Injectable()
@ImplementsPort(PERSON_SESSIONS)
export class SessionsOfPeople implements PersonSessions {
  constructor(private readonly sessions: SessionsRepository) {}

  factsFor(tx: EntityManager, organizationId: string, emailKeys: string[]): Promise<Map<string, SessionFacts[]>> {
    return this.sessions.factsOfPeople(tx, organizationId, emailKeys);
  }

  assign(tx: EntityManager, organizationId: string, assignments: SessionAssignment[]): Promise<void> {
    return this.sessions.assignPeople(tx, organizationId, assignments);
  }
}
