import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ImplementsPort } from '../../common/wiring/port';
import { JOB_WORK_FACTS, type JobWork, type JobWorkFacts } from '../custom-link-jobs';
import { ThumbnailRendersService } from '../thumbnails';
import { CustomLinksRepository } from './custom-links.repository';

/** What link jobs produced: their card renders (thumbnails module) and their links' card states. */
@Injectable()
@ImplementsPort(JOB_WORK_FACTS)
export class LinkJobFacts implements JobWorkFacts {
  constructor(
    private readonly renders: ThumbnailRendersService,
    private readonly links: CustomLinksRepository,
  ) {}

  async of(
    organizationId: string,
    jobs: { id: string; createdLinkIds: string[] }[],
    tx?: EntityManager,
  ): Promise<Map<string, JobWork>> {
    const [progress, cards] = await Promise.all([
      this.renders.progressOfJobs(
        organizationId,
        jobs.map((job) => job.id),
        tx,
      ),
      this.links.thumbnailCountsOfJobs(organizationId, jobs, tx),
    ]);
    return new Map(
      jobs.map((job) => [
        job.id,
        {
          rendersQueued: progress.get(job.id)?.queued ?? 0,
          rendersSettled: progress.get(job.id)?.settled ?? 0,
          thumbnails: cards.get(job.id) ?? {},
        },
      ]),
    );
  }

  /** A link job's work is pending while one of its renders is queued or being drawn. */
  pending(jobs: { organizationId: string; id: string }[]): Promise<Set<string>> {
    return this.renders.jobsDrawing(jobs);
  }
}
