import { Process, Processor } from '@nestjs/bull';
import type { OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { JobReaper } from '../../../common/queue/job-reaper';
import { AgentService } from '../agent.service';
import { AGENT_PUBLISH_QUEUE, PUBLISH_VERSION, type PublishPayload } from './publish.queue';

/** Publish jobs: ids-only payload; the service re-reads state, so a rerun after a crash is harmless; jobs nobody runs come back through the reaper. */
@Processor(AGENT_PUBLISH_QUEUE)
export class PublishProcessor implements OnModuleInit {
  constructor(
    private readonly agent: AgentService,
    private readonly reaper: JobReaper,
  ) {}

  onModuleInit(): void {
    this.reaper.register(this.agent.reapable());
  }

  @Process({ name: PUBLISH_VERSION, concurrency: 2 })
  async publish(job: Job<PublishPayload>): Promise<void> {
    await this.agent.run(job.data.organizationId, job.data.jobId);
  }
}
