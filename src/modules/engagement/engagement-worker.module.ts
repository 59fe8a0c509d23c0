import { Module } from '@nestjs/common';
import { EngagementModule } from './engagement.module';
import { LinkOpensProcessor } from './jobs/link-opens.processor';

/** Worker-only: opens recorded from GET /l/{slug}. */
@Module({ imports: [EngagementModule], providers: [LinkOpensProcessor] })
export class EngagementWorkerModule {}
