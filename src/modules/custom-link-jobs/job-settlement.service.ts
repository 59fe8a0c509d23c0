import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookOutbox } from '../webhooks';
import { CustomLinkJobsRepository, progressFactsOf } from './custom-link-jobs.repository';
import { toJobResponse } from './dto/job.response';
import { JobViews } from './job-views';
import { isTerminal, settledStatus } from './rules/job-status';

/**
 * Moves a job to its final status once nothing it owns is pending. Called after each piece of its
 * work commits (an item, a render, a cancel); whichever caller commits last sees nothing pending.
 */
@Injectable()
export class JobSettlementService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: CustomLinkJobsRepository,
    private readonly views: JobViews,
    private readonly webhooks: WebhookOutbox,
  ) {}

  async settleIfDone(organizationId: string, jobId: string): Promise<void> {
    const job = await this.views.find(organizationId, jobId);
    if (!job || isTerminal(job.status)) return;
    const status = settledStatus(progressFactsOf(job));
    if (!status) return this.jobs.touch(organizationId, jobId);
    // custom_link_job.finished commits with the final status, once: only the settling update fires it.
    await this.db.transaction(async (tx) => {
      if (!(await this.jobs.settle(tx, organizationId, jobId, status))) return;
      await this.webhooks.record(tx, organizationId, 'custom_link_job.finished', async () =>
        toJobResponse((await this.views.find(organizationId, jobId, tx))!),
      );
    });
  }
}
