import { Module } from '@nestjs/common';
import { ThumbnailsProcessor } from './jobs/thumbnails.processor';
import { ThumbnailsModule } from './thumbnails.module';

/** Worker-only: share-card renders, on their own queue so creation never waits behind drawing. */
@Module({ imports: [ThumbnailsModule], providers: [ThumbnailsProcessor] })
export class ThumbnailsJobsModule {}
