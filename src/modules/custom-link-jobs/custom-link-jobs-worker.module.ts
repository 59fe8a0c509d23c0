import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { CustomLinkJobsModule } from './custom-link-jobs.module';
import { JOBS_QUEUE } from './jobs/custom-link-jobs.queue';
import { CustomLinkJobsProcessor } from './jobs/custom-link-jobs.processor';

/** Worker-only: runs queued jobs through their handlers, and hands back to the queue those nobody runs (JobReaper). */
@Module({
  imports: [CustomLinkJobsModule, BullModule.registerQueue({ name: JOBS_QUEUE }), JobReaperModule],
  providers: [CustomLinkJobsProcessor],
})
export class CustomLinkJobsWorkerModule {}
