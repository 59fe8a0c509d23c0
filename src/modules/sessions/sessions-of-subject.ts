import { Injectable } from '@nestjs/common';
import type { SessionDetailResponse } from './dto/session.response';
import type { TranscriptResponse } from './dto/transcript.response';
import { SessionsRepository } from './sessions.repository';
import { toSessionDetail } from './sessions.service';

/** What the organization holds of a person's sessions (docs/api.md §18.4). */
export interface SubjectSessions {
  /** Newest first, visible or not. */
  sessions: SessionDetailResponse[];
  /** Of those sessions that have one, in their order. */
  transcripts: TranscriptResponse[];
  /** More sessions than the limit exist. */
  truncated: boolean;
}

/** A person's sessions and transcripts, read for the right of access (docs/api.md §18.4). */
@Injectable()
export class SessionsOfSubject {
  constructor(private readonly sessions: SessionsRepository) {}

  /**
   * The newest `limit` sessions of an email key, visible or not, each as the session detail answers
   * it, with their transcripts as the transcript route answers them. Reading them charges nothing to
   * the daily transcript quota (docs/api.md §8.2): a data subject's request is not a client's
   * reading, and a person's few transcripts must not wait for the next day.
   */
  async sessionsOf(organizationId: string, emailKey: string, limit: number): Promise<SubjectSessions> {
    const rows = await this.sessions.detailsOfEmail(organizationId, emailKey, limit + 1);
    const listed = rows.slice(0, limit);
    const stored = await this.sessions.transcriptsOf(
      organizationId,
      listed.map((row) => row.id),
    );
    const transcripts = listed.flatMap((row): TranscriptResponse[] => {
      const transcript = stored.get(row.id);
      return transcript ? [{ sessionId: row.id, entries: transcript.entries, total: transcript.total }] : [];
    });
    return { sessions: listed.map(toSessionDetail), transcripts, truncated: rows.length > limit };
  }
}
