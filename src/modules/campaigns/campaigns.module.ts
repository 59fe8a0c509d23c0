import { Module } from '@nestjs/common';
import { CampaignLinksRegistry } from './campaign-links';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

/**
 * Campaigns for every role (no routes: workers file links too; see CampaignsHttpModule). Their link
 * counts come from the module that files links (CampaignLinks).
 */
@Module({
  providers: [CampaignsRepository, CampaignsService, CampaignLinksRegistry],
  exports: [CampaignsService, CampaignLinksRegistry],
})
export class CampaignsModule {}
