import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CampaignsController } from './campaigns.controller';
import { CampaignsModule } from './campaigns.module';

/** The campaign routes (API role only). */
@Module({ imports: [CampaignsModule, IdempotencyModule], controllers: [CampaignsController] })
export class CampaignsHttpModule {}
