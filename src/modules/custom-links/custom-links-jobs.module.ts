import { Module } from '@nestjs/common';
import { CustomLinksModule } from './custom-links.module';
import { CustomLinkJobsProcessor } from './jobs/custom-link-jobs.processor';
import { ThumbnailsProcessor } from './jobs/thumbnails.processor';

/** Worker-only: creation jobs and thumbnail renders. */
@Module({ imports: [CustomLinksModule], providers: [CustomLinkJobsProcessor, ThumbnailsProcessor] })
export class CustomLinksJobsModule {}
