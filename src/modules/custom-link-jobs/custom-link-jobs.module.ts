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
