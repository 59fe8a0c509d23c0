import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { CAMPAIGN_LINKS } from './campaign-links';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CampaignsController } from './campaigns.controller';

/**
 * Campaigns for every role (no routes: workers file links too; see CampaignsHttpModule). Their link
 * counts come from the module that files links (CampaignLinks).
 */
@Module({
  imports: [IdempotencyRecordsModule, CAMPAIGN_LINKS.module],
  providers: [CampaignsRepository, CampaignsService],
  exports: [CampaignsService],
})
export class CampaignsModule {}

/** The campaign routes (API role only). */
@Module({ imports: [CampaignsModule, IdempotencyModule], controllers: [CampaignsController] })
export class CampaignsHttpModule {}
