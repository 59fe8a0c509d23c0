export { CAMPAIGN_LINKS, type CampaignLinks } from './campaign-links';
export { CampaignsHttpModule, CampaignsModule } from './campaigns.module';
export { CampaignsService } from './campaigns.service';
export type { CampaignLinkCounts } from './dto/campaign.response';
