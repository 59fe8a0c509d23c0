import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CAMPAIGN_LINKS, type CampaignLinkCounts, type CampaignLinks } from '../campaigns';
import { LinkFiling } from '../engagement';
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
    private readonly filing: LinkFiling,
  ) {}

  countsFor(organizationId: string, campaignIds: string[]): Promise<Map<string, CampaignLinkCounts>> {
    return this.links.countsByCampaign(organizationId, campaignIds);
  }

  /**
   * The links' rows first (in id order, as the fold locks them), then the campaign's figures, then
   * where their events are filed.
   */
  async unfiling(tx: EntityManager, organizationId: string, campaignId: string): Promise<void> {
    const unfiled = await this.links.unfileCampaign(tx, organizationId, campaignId);
    if (unfiled.length === 0) return;
    await this.filing.figuresChanged(tx, organizationId, unfiled);
    await this.filing.campaignUnfiled(tx, organizationId, campaignId);
  }

  unfiled(organizationId: string): Promise<void> {
    return this.counts.invalidate(organizationId, LINK_LIST);
  }
}
