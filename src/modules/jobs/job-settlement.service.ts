import { Injectable } from '@nestjs/common';
import { CustomLinkJobsRepository, progressFactsOf } from './custom-link-jobs.repository';
import { isTerminal, settledStatus } from './rules/job-status';

/**
 * Moves a job to its final status once nothing it owns is pending. Called after each piece of its
 * work commits (an item, a render, a cancel); whichever caller commits last sees nothing pending.
 */
@Injectable()
export class JobSettlementService {
  constructor(private readonly jobs: CustomLinkJobsRepository) {}

  async settleIfDone(organizationId: string, jobId: string): Promise<void> {
    const job = await this.jobs.view(organizationId, jobId);
    if (!job || isTerminal(job.status)) return;
    const status = settledStatus(progressFactsOf(job));
    if (status) await this.jobs.settle(organizationId, jobId, status);
    else await this.jobs.touch(organizationId, jobId);
  }
}
