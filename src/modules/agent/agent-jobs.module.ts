import { Module } from '@nestjs/common';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { AgentModule } from './agent.module';
import { PublishProcessor } from './jobs/publish.processor';

/** Worker-only: publish jobs. */
@Module({ imports: [AgentModule, JobReaperModule], providers: [PublishProcessor] })
export class AgentJobsModule {}
