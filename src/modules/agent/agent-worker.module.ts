import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { AgentModule } from './agent.module';
import { AGENT_PUBLISH_QUEUE } from './jobs/publish.queue';
import { PublishProcessor } from './jobs/publish.processor';

/** Worker-only: publish jobs. */
@Module({
  imports: [AgentModule, BullModule.registerQueue({ name: AGENT_PUBLISH_QUEUE }), JobReaperModule],
  providers: [PublishProcessor],
})
export class AgentWorkerModule {}
