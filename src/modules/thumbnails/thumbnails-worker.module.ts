import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { THUMBNAILS_QUEUE } from './jobs/thumbnails.queue';
import { ThumbnailsProcessor } from './jobs/thumbnails.processor';
import { ThumbnailsModule } from './thumbnails.module';

/** Worker-only: share-card renders, on their own queue so creation never waits behind drawing. */
@Module({
  imports: [ThumbnailsModule, BullModule.registerQueue({ name: THUMBNAILS_QUEUE }), JobReaperModule],
  providers: [ThumbnailsProcessor],
})
export class ThumbnailsWorkerModule {}
