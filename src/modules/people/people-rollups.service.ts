import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockNames } from '../../common/database/advisory-locks';
import { InjectPort } from '../../common/wiring/port';
import { AccountRollupsService, accountDomainOf } from '../accounts';
import { PeopleRepository } from './people.repository';
import { PERSON_SESSIONS, type PersonSessions } from './person-sessions';
import { rollUpPerson } from './rules/person-rollup';

/**
 * Keeps people (and through them accounts) equal to a from-scratch rollup of their visible
 * sessions. Runs inside the caller's transaction, which has already written the sessions it
 * changed: under each person's lock it reads that person's sessions, writes or deletes the person,
 * points the sessions at it, then refreshes the accounts the people belong to.
 */
@Injectable()
export class PeopleRollupsService {
  constructor(
    private readonly people: PeopleRepository,
    @InjectPort(PERSON_SESSIONS) private readonly sessions: PersonSessions,
    private readonly accounts: AccountRollupsService,
  ) {}

  /** Recomputes the people with these email keys as of `calculatedAt`; returns person ids by key. */
  async refresh(
    tx: EntityManager,
    organizationId: string,
    emailKeys: Iterable<string>,
    calculatedAt: Date,
  ): Promise<Map<string, string>> {
    return (await this.rollUp(tx, organizationId, emailKeys, calculatedAt)).ids;
  }

  /** refresh(), answering how many of these people were deleted (no session of theirs remains). */
  async refreshCountingDeleted(
    tx: EntityManager,
    organizationId: string,
    emailKeys: Iterable<string>,
    calculatedAt: Date,
  ): Promise<number> {
    return (await this.rollUp(tx, organizationId, emailKeys, calculatedAt)).deleted;
  }

  /**
   * Takes these people's locks, which refresh takes again (the locks are re-entrant). A writer of
   * sessions takes them before it locks a session's row: a refresh holding a person's lock locks
   * the person's sessions' rows to point them at it, so a writer holding such a row while waiting
   * for the person would deadlock with it.
   */
  async lockPeople(tx: EntityManager, organizationId: string, emailKeys: Iterable<string>): Promise<void> {
    await lockNames(
      tx,
      [...new Set(emailKeys)].map((key) => `person:${organizationId}:${key}`),
    );
  }

  private async rollUp(
    tx: EntityManager,
    organizationId: string,
    emailKeys: Iterable<string>,
    calculatedAt: Date,
  ): Promise<{ ids: Map<string, string>; deleted: number }> {
    const keys = [...new Set(emailKeys)];
    if (keys.length === 0) return { ids: new Map(), deleted: 0 };
    await this.lockPeople(tx, organizationId, keys);
    const sessionsByKey = await this.sessions.factsFor(tx, organizationId, keys);
    const rollups = [...sessionsByKey].map(([key, sessions]) => rollUpPerson(key, sessions, calculatedAt));
    const ids = await this.people.upsertRollups(tx, organizationId, rollups);
    await this.sessions.assign(
      tx,
      organizationId,
      rollups.map((rollup) => ({
        emailKey: rollup.emailKey,
        personId: ids.get(rollup.emailKey) as string,
        qualificationStatus: rollup.qualification?.status ?? null,
      })),
    );
    const deleted = await this.people.deleteByEmailKeys(
      tx,
      organizationId,
      keys.filter((key) => !sessionsByKey.has(key)),
    );
    const domains = keys.map(accountDomainOf).filter((domain): domain is string => domain !== null);
    await this.accounts.refresh(tx, organizationId, domains, (wanted) =>
      this.people.accountFactsFor(tx, organizationId, wanted),
    );
    return { ids, deleted };
  }
}
