import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { ThumbnailRendersService } from '../thumbnail-renders.service';
import { RENDER_THUMBNAIL, THUMBNAILS_QUEUE, type RenderThumbnailPayload } from './thumbnails.queue';

/** Share-card renders, on their own queue so creation never waits behind drawing. */
@Processor(THUMBNAILS_QUEUE)
export class ThumbnailsProcessor {
  constructor(private readonly renders: ThumbnailRendersService) {}

  @Process({ name: RENDER_THUMBNAIL, concurrency: 4 })
  async render(job: Job<RenderThumbnailPayload>): Promise<void> {
    await this.renders.run(job.data.organizationId, job.data.renderId);
  }
}
