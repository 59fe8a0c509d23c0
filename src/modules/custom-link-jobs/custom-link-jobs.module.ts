import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { CustomLinkJobsRepository } from './custom-link-jobs.repository';
import { JOB_HANDLERS } from './job-handlers';
import { JobSettlementService } from './job-settlement.service';
import { JobViews } from './job-views';
import { JOB_WORK_FACTS } from './job-work-facts';
import { CustomLinkJobsService } from './custom-link-jobs.service';
import { JOBS_QUEUE } from './jobs/custom-link-jobs.queue';
import { WebhooksModule } from '../webhooks';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CustomLinkJobsController } from './custom-link-jobs.controller';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { CustomLinkJobsProcessor } from './jobs/custom-link-jobs.processor';

/**
 * Jobs for every role (routes: CustomLinkJobsHttpModule; worker: CustomLinkJobsWorkerModule): the job resource and its
 * lifecycle. The module whose work jobs run implements a JobHandler for its job types, and what its
 * work produced (JobWorkFacts) for the job view.
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: JOBS_QUEUE }),
    IdempotencyRecordsModule,
    JobLeasesModule,
    WebhooksModule,
    JOB_HANDLERS.module,
    JOB_WORK_FACTS.module,
  ],
  providers: [CustomLinkJobsRepository, JobSettlementService, JobViews, CustomLinkJobsService],
  exports: [CustomLinkJobsService],
})
export class CustomLinkJobsModule {}

/** The job routes (API role only). */
@Module({
  providers: [ConditionalGet],
  imports: [CustomLinkJobsModule, IdempotencyModule],
  controllers: [CustomLinkJobsController],
})
export class CustomLinkJobsHttpModule {}

/** Worker-only: runs queued jobs through their handlers, and hands back to the queue those nobody runs (JobReaper). */
@Module({
  imports: [CustomLinkJobsModule, BullModule.registerQueue({ name: JOBS_QUEUE }), JobReaperModule],
  providers: [CustomLinkJobsProcessor],
})
export class CustomLinkJobsWorkerModule {}
