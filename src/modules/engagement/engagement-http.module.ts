import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { EngagementController } from './engagement.controller';
import { EngagementModule } from './engagement.module';

/** Event ingestion, session references, campaign engagement and the funnel (API role only). */
@Module({ imports: [EngagementModule, IdempotencyModule], controllers: [EngagementController] })
export class EngagementHttpModule {}
