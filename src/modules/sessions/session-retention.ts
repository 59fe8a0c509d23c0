import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { lockNames } from '../../common/database/advisory-locks';
import { CountCache } from '../../common/pagination/count-cache';
import { EventRetention } from '../engagement';
import { PEOPLE_LIST, PeopleRollupsService } from '../people';
import { SESSION_LIST } from './session-list';
import { SessionsRepository } from './sessions.repository';

/** Sessions (or transcripts) deleted per transaction: bounds each one's locks and rollup work. */
const BATCH = 500;

/** What deleting expired sessions removed. */
export interface ExpiredSessions {
  sessions: number;
  sessionReferences: number;
}

/**
 * Retention of sessions and transcripts (docs/api.md §6.10). Each batch is one transaction: the
 * sessions (and with them their transcripts) deleted under the locks ingestion takes, their link
 * session references deleted, and their people and accounts rolled up again by the rollup ingestion
 * uses. A run killed between batches leaves every committed batch whole; the next run goes on.
 */
@Injectable()
export class SessionRetention {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly rollups: PeopleRollupsService,
    private readonly references: EventRetention,
    private readonly counts: CountCache,
  ) {}

  /** Deletes the transcripts of sessions that started before `cutoff`; returns how many. */
  async expireTranscripts(organizationId: string, cutoff: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.sessions.deleteTranscriptsBefore(organizationId, cutoff, BATCH);
      deleted += batch;
      if (batch < BATCH) return deleted;
    }
  }

  /** Deletes the sessions that started before `cutoff`, with their transcripts and references. */
  async expireSessions(organizationId: string, cutoff: Date): Promise<ExpiredSessions> {
    const expired: ExpiredSessions = { sessions: 0, sessionReferences: 0 };
    let after: string | null = null;
    for (;;) {
      const ids = await this.sessions.startedBefore(organizationId, cutoff, after, BATCH);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      const batch = await this.db.transaction(async (tx) => {
        await lockNames(
          tx,
          ids.map((id) => `session:${id}`),
        );
        const deleted = await this.sessions.deleteStartedBefore(tx, organizationId, ids, cutoff);
        const references = await this.references.forgetSessions(
          tx,
          organizationId,
          deleted.map((session) => session.id),
        );
        const people = deleted.map((session) => session.emailKey).filter((key): key is string => key !== null);
        await this.rollups.refresh(tx, organizationId, people, new Date());
        return { sessions: deleted.length, sessionReferences: references };
      });
      expired.sessions += batch.sessions;
      expired.sessionReferences += batch.sessionReferences;
    }
    expired.sessionReferences += await this.references.forgetGoneSessions(organizationId, cutoff, (ids) =>
      this.sessions.heldAmong(organizationId, ids),
    );
    if (expired.sessions > 0) await this.counts.invalidate(organizationId, SESSION_LIST, PEOPLE_LIST);
    return expired;
  }
}
