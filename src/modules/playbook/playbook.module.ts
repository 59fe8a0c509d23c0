import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AgentService } from './agent.service';
import { AGENT_PUBLISH_QUEUE } from './jobs/publish.queue';
import { PlaybookRepository } from './playbook.repository';
import { PlaybookService } from './playbook.service';

/** Playbook and agent publishing for every role (routes: PlaybookHttpModule; worker: PlaybookJobsModule). */
@Module({
  imports: [BullModule.registerQueue({ name: AGENT_PUBLISH_QUEUE })],
  providers: [PlaybookRepository, PlaybookService, AgentService],
  exports: [PlaybookService, AgentService],
})
export class PlaybookModule {}
