import { Module } from '@nestjs/common';
import { JobsWorkerModule } from '../jobs';
import { CustomLinksModule } from './custom-links.module';

/** Worker-only: the jobs runner, with the link job handler (CustomLinksModule). */
@Module({ imports: [CustomLinksModule, JobsWorkerModule] })
export class CustomLinksJobsModule {}
