import { Module } from '@nestjs/common';
import { CountCache } from '../../common/pagination/count-cache';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

/** Campaigns for every role (no routes: workers file links too; see CampaignsHttpModule). */
@Module({
  providers: [CampaignsRepository, CampaignsService, CountCache],
  exports: [CampaignsService],
})
export class CampaignsModule {}
