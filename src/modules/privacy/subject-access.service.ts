import { Injectable } from '@nestjs/common';
import { emailKeyOf } from '../../common/privacy/data-subject';
import { CustomLinksService } from '../custom-links';
import { LinkEventCounts } from '../engagement';
import { PeopleService } from '../people';
import { SessionsOfSubject } from '../sessions';
import { MAX_SUBJECT_LINKS, MAX_SUBJECT_SESSIONS, type SubjectAccessResponse } from './dto/subject-access.response';

/**
 * The right of access (docs/api.md §18.4): what the organization holds about an email, matched as
 * an erasure matches it (§18.2), read through the modules that own it. Nothing about the email or
 * what is found is logged.
 */
@Injectable()
export class SubjectAccessService {
  constructor(
    private readonly people: PeopleService,
    private readonly sessions: SessionsOfSubject,
    private readonly links: CustomLinksService,
    private readonly events: LinkEventCounts,
  ) {}

  async access(organizationId: string, email: string): Promise<SubjectAccessResponse> {
    const emailKey = emailKeyOf(email);
    const [person, held, linked] = await Promise.all([
      this.people.ofEmailKey(organizationId, emailKey),
      this.sessions.sessionsOf(organizationId, emailKey, MAX_SUBJECT_SESSIONS),
      this.links.ofEmailKey(organizationId, emailKey, MAX_SUBJECT_LINKS),
    ]);
    const linkEvents = await this.events.countsOf(
      organizationId,
      linked.customLinks.map((link) => link.id),
    );
    return {
      email: emailKey,
      person,
      sessions: held.sessions,
      transcripts: held.transcripts,
      customLinks: linked.customLinks,
      linkEvents,
      truncated: held.truncated || linked.truncated,
    };
  }
}
