import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { ThumbnailsProcessor } from './jobs/thumbnails.processor';
import { ThumbnailsModule } from './thumbnails.module';

/** Worker-only: share-card renders, on their own queue so creation never waits behind drawing. */
@Module({ imports: [ThumbnailsModule, JobReaperModule], providers: [ThumbnailsProcessor] })
export class ThumbnailsJobsModule {}
