import { Module } from '@nestjs/common';
import { AgentModule } from './agent.module';
import { PublishProcessor } from './jobs/publish.processor';

/** Worker-only: publish jobs. */
@Module({ imports: [AgentModule], providers: [PublishProcessor] })
export class AgentJobsModule {}
