import { Injectable } from '@nestjs/common';
import { present, type DataSubject, type SubjectTraces } from '../../common/privacy/data-subject';
import { SessionDeletion, type DeletedSessions } from './session-deletion';
import { SessionsRepository } from './sessions.repository';

/**
 * Erasure of a person's sessions (docs/api.md §18.2): every session, visible or not, whose email or
 * phone is the subject's, deleted with its transcript and link references; the people and accounts
 * it counted in are rolled up again (the person, left without sessions, is deleted).
 */
@Injectable()
export class SessionErasure {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly deletion: SessionDeletion,
  ) {}

  /** The subject's sessions: their ids, emails, phones and names. */
  async traces(organizationId: string, subject: DataSubject): Promise<SubjectTraces> {
    const rows = await this.sessions.ofSubject(organizationId, subject);
    return {
      ids: rows.map((row) => row.id),
      contacts: present(rows.flatMap((row) => [row.email, row.phone])),
      names: present(rows.map((row) => row.name)),
    };
  }

  erase(organizationId: string, subject: DataSubject): Promise<DeletedSessions> {
    return this.deletion.deleteSelected(organizationId, { subject });
  }
}
