import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { lockNames } from '../../common/database/advisory-locks';
import { CountCache } from '../../common/pagination/count-cache';
import { EventRetention } from '../engagement';
import { PEOPLE_LIST, PeopleRollupsService } from '../people';
import { SESSION_LIST } from './session-list';
import { SessionsRepository, type SessionSelection } from './sessions.repository';

/** Sessions deleted per transaction: bounds each one's locks and rollup work. */
const BATCH = 500;

/** What deleting sessions removed. */
export interface DeletedSessions {
  sessions: number;
  transcripts: number;
  sessionReferences: number;
  people: number;
}

/**
 * Deletes the sessions a selection picks (retention's expired ones, an erasure's subject's), batch by
 * batch. Each batch is one transaction: the sessions (and with them their transcripts) deleted under
 * the locks ingestion takes, their link session references deleted, and their people and accounts
 * rolled up again by the rollup ingestion uses (a person left without sessions is deleted). A run
 * killed between batches leaves every committed batch whole; the next run goes on.
 */
@Injectable()
export class SessionDeletion {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly rollups: PeopleRollupsService,
    private readonly references: EventRetention,
    private readonly counts: CountCache,
  ) {}

  async deleteSelected(organizationId: string, selection: SessionSelection): Promise<DeletedSessions> {
    const deleted: DeletedSessions = { sessions: 0, transcripts: 0, sessionReferences: 0, people: 0 };
    let after: string | null = null;
    for (;;) {
      const ids = await this.sessions.selectedPage(organizationId, selection, after, BATCH);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      const batch = await this.db.transaction(async (tx) => {
        await lockNames(
          tx,
          ids.map((id) => `session:${id}`),
        );
        // The people's locks before the sessions' rows (PeopleRollupsService.lockPeople); under the
        // sessions' locks their email keys cannot change.
        await this.rollups.lockPeople(tx, organizationId, await this.sessions.emailKeysOf(tx, organizationId, ids));
        const rows = await this.sessions.deleteSelected(tx, organizationId, ids, selection);
        const references = await this.references.forgetSessions(
          tx,
          organizationId,
          rows.map((session) => session.id),
        );
        const people = rows.map((session) => session.emailKey).filter((key): key is string => key !== null);
        return {
          sessions: rows.length,
          transcripts: rows.filter((session) => session.transcript).length,
          sessionReferences: references,
          people: await this.rollups.refreshCountingDeleted(tx, organizationId, people, new Date()),
        };
      });
      deleted.sessions += batch.sessions;
      deleted.transcripts += batch.transcripts;
      deleted.sessionReferences += batch.sessionReferences;
      deleted.people += batch.people;
    }
    if (deleted.sessions > 0) await this.counts.invalidate(organizationId, SESSION_LIST, PEOPLE_LIST);
    return deleted;
  }
}
