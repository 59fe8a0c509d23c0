import { InjectQueue, Process, Processor } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { ThumbnailRendersService } from '../thumbnail-renders.service';
import { RENDER_THUMBNAIL, THUMBNAILS_QUEUE, type RenderThumbnailPayload } from './thumbnails.queue';

/**
 * Share-card renders, on their own queue so creation never waits behind drawing; renders nobody
 * draws (unfinished, their lease lapsed) come back through the reaper.
 */
@Processor(THUMBNAILS_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class ThumbnailsProcessor implements ReapableJobs<RenderThumbnailPayload> {
  readonly kind = 'thumbnail render';
  readonly jobName = RENDER_THUMBNAIL;

  constructor(
    private readonly renders: ThumbnailRendersService,
    @InjectQueue(THUMBNAILS_QUEUE) readonly queue: Queue<RenderThumbnailPayload>,
  ) {}

  @Process({ name: RENDER_THUMBNAIL, concurrency: 4 })
  async render(job: Job<RenderThumbnailPayload>): Promise<void> {
    await this.renders.run(job.data.organizationId, job.data.renderId);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.renders.reclaimLapsed(lease, limit);
  }

  payload(render: LapsedJob): RenderThumbnailPayload {
    return { organizationId: render.organizationId, renderId: render.id };
  }
}
