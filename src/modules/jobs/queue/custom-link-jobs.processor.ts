import { Process, Processor } from '@nestjs/bull';
import type { OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { JobReaper } from '../../../common/queue/job-reaper';
import { JobsService } from '../jobs.service';
import { JOBS_QUEUE, RUN_JOB, type RunJobPayload } from './job-queue';

/** Jobs: ids-only payload; the service re-reads state, so a rerun after a crash resumes; jobs nobody runs come back through the reaper. */
@Processor(JOBS_QUEUE)
export class CustomLinkJobsProcessor implements OnModuleInit {
  constructor(
    private readonly jobs: JobsService,
    private readonly reaper: JobReaper,
  ) {}

  onModuleInit(): void {
    this.reaper.register(this.jobs.reapable());
  }

  @Process({ name: RUN_JOB, concurrency: 2 })
  async run(job: Job<RunJobPayload>): Promise<void> {
    await this.jobs.run(job.data.organizationId, job.data.jobId);
  }
}
