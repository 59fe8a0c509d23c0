import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { PlaybookModule } from '../playbook';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AGENT_PUBLISH_QUEUE } from './jobs/publish.queue';
import { WebhooksModule } from '../webhooks';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { AgentController } from './agent.controller';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { PublishProcessor } from './jobs/publish.processor';

/** Conversation tests and publishing for every role (routes: AgentHttpModule; worker: AgentWorkerModule). */
@Module({
  imports: [
    BullModule.registerQueue({ name: AGENT_PUBLISH_QUEUE }),
    PlaybookModule,
    IdempotencyRecordsModule,
    JobLeasesModule,
    WebhooksModule,
  ],
  providers: [AgentRepository, AgentService],
  exports: [AgentService],
})
export class AgentModule {}

/** The agent routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [AgentModule, IdempotencyModule], controllers: [AgentController] })
export class AgentHttpModule {}

/** Worker-only: publish jobs. */
@Module({
  imports: [AgentModule, BullModule.registerQueue({ name: AGENT_PUBLISH_QUEUE }), JobReaperModule],
  providers: [PublishProcessor],
})
export class AgentWorkerModule {}
