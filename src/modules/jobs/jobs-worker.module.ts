import { Module } from '@nestjs/common';
import { JobsModule } from './jobs.module';
import { CustomLinkJobsProcessor } from './queue/custom-link-jobs.processor';

/** Worker-only: runs queued jobs through their handlers. */
@Module({ imports: [JobsModule], providers: [CustomLinkJobsProcessor] })
export class JobsWorkerModule {}
