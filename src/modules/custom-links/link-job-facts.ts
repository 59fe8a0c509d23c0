import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ImplementsPort } from '../../common/wiring/port';
import { JOB_WORK_FACTS, type JobWork, type JobWorkFacts } from '../custom-link-jobs';
import { ThumbnailRendersService } from '../thumbnails';

/** What link jobs produced: their card renders (thumbnails module). Their links' card states are the read model link_card_states. */
@Injectable()
@ImplementsPort(JOB_WORK_FACTS)
export class LinkJobFacts implements JobWorkFacts {
  constructor(private readonly renders: ThumbnailRendersService) {}

  async of(organizationId: string, jobIds: string[], tx?: EntityManager): Promise<Map<string, JobWork>> {
    const progress = await this.renders.progressOfJobs(organizationId, jobIds, tx);
    return new Map(
      jobIds.map((id) => [
        id,
        { rendersQueued: progress.get(id)?.queued ?? 0, rendersSettled: progress.get(id)?.settled ?? 0 },
      ]),
    );
  }

  /** A link job's work is pending while one of its renders is queued or being drawn. */
  pending(jobs: { organizationId: string; id: string }[]): Promise<Set<string>> {
    return this.renders.jobsDrawing(jobs);
  }
}
