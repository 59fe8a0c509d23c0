import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { CustomLinkJobsRepository } from './custom-link-jobs.repository';
import { JobHandlers } from './job-handlers';
import { JobSettlementService } from './job-settlement.service';
import { JobWorkFactsRegistry } from './job-work-facts';
import { JobsService } from './jobs.service';
import { JOBS_QUEUE } from './queue/job-queue';
import { WebhooksModule } from '../webhooks';

/**
 * Jobs for every role (routes: JobsHttpModule; worker: JobsWorkerModule): the job resource and its
 * lifecycle. The kinds of work register a JobHandler for their job types, and what their work
 * produced (JobWorkFacts) for the job view.
 */
@Module({
  imports: [BullModule.registerQueue({ name: JOBS_QUEUE }), IdempotencyRecordsModule, JobLeasesModule, WebhooksModule],
  providers: [CustomLinkJobsRepository, JobSettlementService, JobsService, JobHandlers, JobWorkFactsRegistry],
  exports: [JobsService, JobHandlers, JobWorkFactsRegistry],
})
export class JobsModule {}
