import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { JobsService } from '../jobs.service';
import { JOBS_QUEUE, RUN_JOB, type RunJobPayload } from './job-queue';

/** Jobs: ids-only payload; the service re-reads state, so a rerun after a crash resumes. */
@Processor(JOBS_QUEUE)
export class CustomLinkJobsProcessor {
  constructor(private readonly jobs: JobsService) {}

  @Process({ name: RUN_JOB, concurrency: 2 })
  async run(job: Job<RunJobPayload>): Promise<void> {
    await this.jobs.run(job.data.organizationId, job.data.jobId);
  }
}
