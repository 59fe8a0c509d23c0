import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { PlaybookModule } from '../playbook';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AGENT_PUBLISH_QUEUE } from './jobs/publish.queue';
import { WebhooksModule } from '../webhooks';

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
