import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { JobsModule } from './jobs.module';
import { JOBS_QUEUE } from './queue/job-queue';
import { CustomLinkJobsProcessor } from './queue/custom-link-jobs.processor';

/** Worker-only: runs queued jobs through their handlers, and hands back to the queue those nobody runs (JobReaper). */
@Module({
  imports: [JobsModule, BullModule.registerQueue({ name: JOBS_QUEUE }), JobReaperModule],
  providers: [CustomLinkJobsProcessor],
})
export class JobsWorkerModule {}
