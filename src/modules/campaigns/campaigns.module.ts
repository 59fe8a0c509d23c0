import { Module } from '@nestjs/common';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

/** Campaigns for every role (no routes: workers file links too; see CampaignsHttpModule). */
@Module({
  providers: [CampaignsRepository, CampaignsService],
  exports: [CampaignsService],
})
export class CampaignsModule {}
