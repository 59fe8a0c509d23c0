import { InjectQueue, Process, Processor } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { PrivacyRepository } from '../privacy.repository';
import { ErasureRunner } from './erasure-runner.service';
import { PRIVACY_QUEUE, RUN_ERASURE, type RunErasurePayload } from './privacy.queue';

/** Erasure runs (ids-only payload; a rerun finishes what is left); erasures nobody runs come back through the reaper. */
@Processor(PRIVACY_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class PrivacyProcessor implements ReapableJobs<RunErasurePayload> {
  readonly kind = 'erasure';
  readonly jobName = RUN_ERASURE;

  constructor(
    private readonly runner: ErasureRunner,
    private readonly erasures: PrivacyRepository,
    @InjectQueue(PRIVACY_QUEUE) readonly queue: Queue,
  ) {}

  @Process({ name: RUN_ERASURE, concurrency: 1 })
  async run(job: Job<RunErasurePayload>): Promise<void> {
    await this.runner.run(job.data.organizationId, job.data.erasureId);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.erasures.reclaimLapsed(lease, limit);
  }

  payload(job: LapsedJob): RunErasurePayload {
    return { organizationId: job.organizationId, erasureId: job.id };
  }
}
