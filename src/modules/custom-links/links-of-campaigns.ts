import { Injectable } from '@nestjs/common';
import { CAMPAIGN_LINKS, type CampaignLinkCounts, type CampaignLinks } from '../campaigns';
import { CountCache } from '../../common/pagination/count-cache';
import { ImplementsPort } from '../../common/wiring/port';
import { CustomLinksRepository } from './custom-links.repository';
import { LINK_LIST } from './link-list';

/** Custom Links as the campaigns module counts them. */
@Injectable()
@ImplementsPort(CAMPAIGN_LINKS)
export class LinksOfCampaigns implements CampaignLinks {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly counts: CountCache,
  ) {}

  countsFor(organizationId: string, campaignIds: string[]): Promise<Map<string, CampaignLinkCounts>> {
    return this.links.countsByCampaign(organizationId, campaignIds);
  }

  unfiled(organizationId: string): Promise<void> {
    return this.counts.invalidate(organizationId, LINK_LIST);
  }
}
