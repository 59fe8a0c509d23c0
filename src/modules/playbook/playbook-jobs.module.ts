import { Module } from '@nestjs/common';
import { PublishProcessor } from './jobs/publish.processor';
import { PlaybookModule } from './playbook.module';

/** Worker-only: publish jobs. */
@Module({ imports: [PlaybookModule], providers: [PublishProcessor] })
export class PlaybookJobsModule {}
