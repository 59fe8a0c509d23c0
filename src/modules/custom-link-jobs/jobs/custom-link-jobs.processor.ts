import { InjectQueue, Process, Processor } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { CustomLinkJobsService } from '../custom-link-jobs.service';
import { JOBS_QUEUE, RUN_JOB, type RunJobPayload } from './custom-link-jobs.queue';

/** Jobs: ids-only payload; the service re-reads state, so a rerun after a crash resumes; jobs nobody runs come back through the reaper. */
@Processor(JOBS_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class CustomLinkJobsProcessor implements ReapableJobs<RunJobPayload> {
  readonly kind = 'custom link job';
  readonly jobName = RUN_JOB;

  constructor(
    private readonly jobs: CustomLinkJobsService,
    @InjectQueue(JOBS_QUEUE) readonly queue: Queue<RunJobPayload>,
  ) {}

  @Process({ name: RUN_JOB, concurrency: 2 })
  async run(job: Job<RunJobPayload>): Promise<void> {
    await this.jobs.run(job.data.organizationId, job.data.jobId);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.jobs.reclaimLapsed(lease, limit);
  }

  payload(job: LapsedJob): RunJobPayload {
    return { organizationId: job.organizationId, jobId: job.id };
  }
}
