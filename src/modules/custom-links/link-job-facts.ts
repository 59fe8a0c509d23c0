import { Injectable } from '@nestjs/common';
import type { JobWorkFacts } from '../jobs';
import { rendersOfJobSql } from '../thumbnails';
import { thumbnailStatusCountsSql } from './custom-links.queries';

/** What link jobs produced: their card renders (thumbnails module) and their links' card states. */
@Injectable()
export class LinkJobFacts implements JobWorkFacts {
  sql(job: string, createdLinks: string): string {
    return `SELECT r.renders_queued, r.renders_settled, t.thumbnails
              FROM (${rendersOfJobSql(`${job}.organization_id`, `${job}.id`)}) r
              CROSS JOIN (${thumbnailStatusCountsSql(`${job}.organization_id`, createdLinks)}) t`;
  }
}
