import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EngagementRepository, type FiledLink } from './engagement.repository';
import { campaignFigureChanges, type LinkFiguresChange } from './rules/campaign-figures';

/**
 * Where a link's events are filed in the analytics facets (docs/api.md §6.9): under its campaign and
 * account domain as they are now. The links' owner tells it, in the transaction that moved them and
 * after their rows were written (so a fold of their events waits, and files them as they are then).
 */
@Injectable()
export class LinkFiling {
  constructor(private readonly engagement: EngagementRepository) {}

  /** These links' campaign or account domain may have changed in `tx`; `before`: what they were. */
  moved(tx: EntityManager, organizationId: string, before: FiledLink[]): Promise<void> {
    return this.engagement.refileLinks(tx, organizationId, before);
  }

  /**
   * Links were written in `tx`, which holds their rows: their campaigns' figures follow (docs/api.md
   * §2.10), in the same transaction, from the links as they were (read when locked) and as the write
   * returned them. One statement when any campaign's figures change, one more when a link took a
   * campaign's earliest or latest time away (recounted from its links).
   */
  async figuresChanged(tx: EntityManager, organizationId: string, changes: LinkFiguresChange[]): Promise<void> {
    const campaigns = campaignFigureChanges(changes);
    await this.engagement.addCampaignFigures(tx, organizationId, campaigns);
    await this.engagement.recountCampaignTimes(
      tx,
      organizationId,
      campaigns.filter((c) => c.recount).map((c) => c.campaignId),
    );
  }

  /**
   * Before a statement changes links of several campaigns in `tx`, which holds the links' rows: their
   * campaigns' figures locked in campaign order, as figuresChanged takes them after the write.
   */
  lockFigures(tx: EntityManager, organizationId: string, campaignIds: (string | null)[]): Promise<void> {
    const campaigns = [...new Set(campaignIds.filter((id): id is string => id !== null))];
    return this.engagement.lockCampaignFigures(tx, organizationId, campaigns);
  }

  /** Every link of the campaign was unfiled in `tx` (the campaign is being deleted). */
  campaignUnfiled(tx: EntityManager, organizationId: string, campaignId: string): Promise<void> {
    return this.engagement.unfileCampaign(tx, organizationId, campaignId);
  }
}
