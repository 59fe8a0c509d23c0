import { Module } from '@nestjs/common';
import { CustomLinksModule } from './custom-links.module';
import { CustomLinkJobsProcessor } from './jobs/custom-link-jobs.processor';

/** Worker-only: creation jobs. */
@Module({ imports: [CustomLinksModule], providers: [CustomLinkJobsProcessor] })
export class CustomLinksJobsModule {}
