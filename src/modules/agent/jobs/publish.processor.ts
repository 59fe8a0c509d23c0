import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { AgentService } from '../agent.service';
import { AGENT_PUBLISH_QUEUE, PUBLISH_VERSION, type PublishPayload } from './publish.queue';

/** Publish jobs: ids-only payload; the service re-reads state, so a rerun after a crash is harmless. */
@Processor(AGENT_PUBLISH_QUEUE)
export class PublishProcessor {
  constructor(private readonly agent: AgentService) {}

  @Process({ name: PUBLISH_VERSION, concurrency: 2 })
  async publish(job: Job<PublishPayload>): Promise<void> {
    await this.agent.run(job.data.organizationId, job.data.jobId);
  }
}
