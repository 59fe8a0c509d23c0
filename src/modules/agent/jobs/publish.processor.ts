import { InjectQueue, Process, Processor } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { AgentService } from '../agent.service';
import { AGENT_PUBLISH_QUEUE, PUBLISH_VERSION, type PublishPayload } from './publish.queue';

/** Publish jobs: ids-only payload; the service re-reads state, so a rerun after a crash is harmless; jobs nobody runs come back through the reaper. */
@Processor(AGENT_PUBLISH_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class PublishProcessor implements ReapableJobs<PublishPayload> {
  readonly kind = 'publish job';
  readonly jobName = PUBLISH_VERSION;

  constructor(
    private readonly agent: AgentService,
    @InjectQueue(AGENT_PUBLISH_QUEUE) readonly queue: Queue<PublishPayload>,
  ) {}

  @Process({ name: PUBLISH_VERSION, concurrency: 2 })
  async publish(job: Job<PublishPayload>): Promise<void> {
    await this.agent.run(job.data.organizationId, job.data.jobId);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.agent.reclaimLapsed(lease, limit);
  }

  payload(job: LapsedJob): PublishPayload {
    return { organizationId: job.organizationId, jobId: job.id };
  }
}
