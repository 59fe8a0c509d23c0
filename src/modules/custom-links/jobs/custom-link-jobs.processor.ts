import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { CustomLinkJobsService } from '../custom-link-jobs.service';
import { CREATE_LINKS, CUSTOM_LINK_JOBS_QUEUE, type CreateLinksPayload } from './queues';

/** Creation jobs: ids-only payload; the service re-reads state, so a rerun after a crash resumes. */
@Processor(CUSTOM_LINK_JOBS_QUEUE)
export class CustomLinkJobsProcessor {
  constructor(private readonly jobs: CustomLinkJobsService) {}

  @Process({ name: CREATE_LINKS, concurrency: 2 })
  async create(job: Job<CreateLinksPayload>): Promise<void> {
    await this.jobs.run(job.data.organizationId, job.data.jobId);
  }
}
