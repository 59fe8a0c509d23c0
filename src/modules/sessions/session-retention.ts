import { Injectable } from '@nestjs/common';
import { EventRetention } from '../engagement';
import { SessionDeletion } from './session-deletion';
import { SessionsRepository } from './sessions.repository';

/** Transcripts deleted per statement. */
const BATCH = 500;

/** What deleting expired sessions removed. */
export interface ExpiredSessions {
  sessions: number;
  sessionReferences: number;
}

/**
 * Retention of sessions and transcripts (docs/api.md §6.10): expired transcripts deleted in
 * batches; expired sessions deleted as SessionDeletion deletes them, then the references of sessions
 * an earlier run deleted that a refold derived again.
 */
@Injectable()
export class SessionRetention {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly deletion: SessionDeletion,
    private readonly references: EventRetention,
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
    const deleted = await this.deletion.deleteSelected(organizationId, { startedBefore: cutoff });
    const gone = await this.references.forgetGoneSessions(organizationId, cutoff, (ids) =>
      this.sessions.heldAmong(organizationId, ids),
    );
    return { sessions: deleted.sessions, sessionReferences: deleted.sessionReferences + gone };
  }
}
