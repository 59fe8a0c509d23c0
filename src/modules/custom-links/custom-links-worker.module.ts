import { Module } from '@nestjs/common';
import { CustomLinkJobsWorkerModule } from '../custom-link-jobs';
import { CustomLinksModule } from './custom-links.module';

/** Worker-only: the jobs runner, with the link job handler (CustomLinksModule). */
@Module({ imports: [CustomLinksModule, CustomLinkJobsWorkerModule] })
export class CustomLinksWorkerModule {}
