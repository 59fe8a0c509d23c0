import type { EntityManager } from 'typeorm';
import { definePort } from '../../common/wiring/port';
import type { CampaignLinkCounts } from './dto/campaign.response';

/**
 * The links filed in campaigns, as their owning module counts them. The owner implements the port:
 * it files links in campaigns, so it depends on this module, not the reverse.
 */
export interface CampaignLinks {
  /** Links per campaign among these ids, active ones apart; a campaign without links is absent. */
  countsFor(organizationId: string, campaignIds: string[]): Promise<Map<string, CampaignLinkCounts>>;
  /** Unfiles the campaign's links in `tx`, before the campaign is deleted in it. */
  unfiling(tx: EntityManager, organizationId: string, campaignId: string): Promise<void>;
  /** After a committed campaign deletion unfiled its links (campaign-filtered link totals changed). */
  unfiled(organizationId: string): Promise<void>;
}

export const CAMPAIGN_LINKS = definePort<CampaignLinks>('campaign links');
