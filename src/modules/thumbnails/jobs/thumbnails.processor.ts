import { Process, Processor } from '@nestjs/bull';
import type { OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { JobReaper } from '../../../common/queue/job-reaper';
import { ThumbnailRendersService } from '../thumbnail-renders.service';
import { RENDER_THUMBNAIL, THUMBNAILS_QUEUE, type RenderThumbnailPayload } from './thumbnails.queue';

/** Share-card renders, on their own queue so creation never waits behind drawing; renders nobody draws come back through the reaper. */
@Processor(THUMBNAILS_QUEUE)
export class ThumbnailsProcessor implements OnModuleInit {
  constructor(
    private readonly renders: ThumbnailRendersService,
    private readonly reaper: JobReaper,
  ) {}

  onModuleInit(): void {
    this.reaper.register(this.renders.reapable());
  }

  @Process({ name: RENDER_THUMBNAIL, concurrency: 4 })
  async render(job: Job<RenderThumbnailPayload>): Promise<void> {
    await this.renders.run(job.data.organizationId, job.data.renderId);
  }
}
