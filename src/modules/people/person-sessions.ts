import type { EntityManager } from 'typeorm';
import { definePort } from '../../common/wiring/port';
import type { SessionFacts } from './rules/person-rollup';

/** Which person a visible session belongs to now, with that person's effective qualification. */
export interface SessionAssignment {
  emailKey: string;
  personId: string;
  qualificationStatus: string | null;
}

/**
 * The sessions people are rolled up from, as their owning module keeps them. The owner implements
 * the port (it depends on this module, not the reverse); both calls run inside the rollup's
 * transaction.
 */
export interface PersonSessions {
  /** The visible sessions of these people, grouped by email key. */
  factsFor(tx: EntityManager, organizationId: string, emailKeys: string[]): Promise<Map<string, SessionFacts[]>>;
  /** Points each person's visible sessions at it. */
  assign(tx: EntityManager, organizationId: string, assignments: SessionAssignment[]): Promise<void>;
}

export const PERSON_SESSIONS = definePort<PersonSessions>('person sessions');
