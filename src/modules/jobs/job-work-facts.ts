import { Injectable } from '@nestjs/common';
import { Registration } from '../../common/registry/registration';

/**
 * What the work of a job produced beyond its items (share card renders), as SQL the job view
 * embeds so a poll stays one statement. The module whose work jobs run registers it at start.
 */
export interface JobWorkFacts {
  /**
   * SQL selecting one row of the job `job` (an alias with organization_id and id), whose created
   * items' link ids are the SQL set `createdLinks`: `renders_queued` and `renders_settled` (int),
   * and `thumbnails` (a json object of link counts by thumbnail status).
   */
  sql(job: string, createdLinks: string): string;
}

/** Holds the registered JobWorkFacts; one per application. */
@Injectable()
export class JobWorkFactsRegistry extends Registration<JobWorkFacts> {
  constructor() {
    super('job work facts');
  }
}
