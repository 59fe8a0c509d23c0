import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { claimPerOrganization } from '../../common/queue/job-reaper';
import { Clock } from '../../common/time/clock';
import { FoldProgress } from '../engagement';
import { WebhookOutbox } from '../webhooks';
import { CustomLinksRepository, type CustomLinkRow } from './custom-links.repository';
import { toCustomLinkResponse } from './dto/custom-link.response';
import { LinkUrls } from './link-urls';
import { isExpired } from './rules/link-access';

/** Links a sweep closes at most per run; the next run takes the rest. */
const SWEEP_LIMIT = 1000;

/**
 * When a link becomes expired or capped (issue 36): the `custom_link.expired` webhook, once per
 * transition (access_closed_at marks a link announced; an edit that reopens it clears the mark). A
 * capped link is announced by the open whose reservation reaches the cap, in that transaction; an
 * expired one (or one capped by lowering its cap) by the sweep, every 30 s on the workers.
 */
@Injectable()
export class LinkAccessEvents {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: CustomLinksRepository,
    private readonly outbox: WebhookOutbox,
    private readonly urls: LinkUrls,
    private readonly progress: FoldProgress,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes one of a capped link's human opens; false when none is left. The open that takes the last
   * one announces the link capped in the same transaction.
   */
  async reserveHumanOpen(organizationId: string, id: string): Promise<boolean> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const link = await this.links.reserveHumanOpen(tx, organizationId, id, now);
      if (link === null) return false;
      if (link.access_closed_at?.getTime() === now.getTime()) await this.announce(tx, [link], now);
      return true;
    });
  }

  /**
   * Announces the links that became expired or capped since the last run, across organizations:
   * read without a lock, then claimed per organization (claimPerOrganization), so that sweepers on
   * several workers announce each link once. Returns how many were announced.
   */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await this.links.dueForClosing(now, SWEEP_LIMIT);
    const closed = await claimPerOrganization(due, (organizationId, ids) =>
      this.db.transaction(async (tx) => {
        const links = await this.links.closeDue(tx, organizationId, ids, now);
        await this.announce(tx, links, now);
        return links.map((link) => ({ organizationId, id: link.id }));
      }),
    );
    return closed.length;
  }

  private async announce(tx: EntityManager, links: CustomLinkRow[], now: Date): Promise<void> {
    if (links.length === 0) return;
    const organizationId = links[0].organization_id;
    const asOf = await this.progress.asOf(organizationId, tx);
    await this.outbox.recordMany(
      tx,
      organizationId,
      links.map((link) => ({
        type: 'custom_link.expired',
        link: { id: link.id, campaignId: link.campaign_id },
        data: () =>
          Promise.resolve({
            ...toCustomLinkResponse(link, this.urls, asOf, now),
            reason: isExpired(link, now) ? 'expired' : 'capped',
            closedAt: now.toISOString(),
          }),
      })),
    );
  }
}
