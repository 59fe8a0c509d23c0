import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CountCache } from '../../common/pagination/count-cache';
import { Clock } from '../../common/time/clock';
import { ImplementsPort } from '../../common/wiring/port';
import { LinkUrls } from './link-urls';
import {
  FoldProgress,
  LinkFiling,
  ROLLUP_LINKS,
  type LinkRollupDelta,
  type LinkView,
  type MilestoneTimes,
  type RollupLinks,
} from '../engagement';
import { CustomLinksRepository } from './custom-links.repository';
import { toCustomLinkResponse } from './dto/custom-link.response';
import { LINK_LIST } from './link-list';

/** Custom Links as the engagement module sees them: resolved by id or slug, rollups merged on the row. */
@Injectable()
@ImplementsPort(ROLLUP_LINKS)
export class LinkRollups implements RollupLinks {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly counts: CountCache,
    private readonly urls: LinkUrls,
    private readonly progress: FoldProgress,
    private readonly filing: LinkFiling,
    private readonly clock: Clock,
  ) {}

  resolve(organizationId: string, ids: string[], slugs: string[]): Promise<{ id: string; slug: string }[]> {
    return this.links.resolveForEvents(organizationId, ids, slugs);
  }

  async exists(organizationId: string, linkId: string): Promise<boolean> {
    return (await this.links.findById(organizationId, linkId)) !== null;
  }

  /**
   * The links locked in id order, then their campaigns' figures in campaign order, then the merge and
   * what it did to those figures.
   */
  async merge(
    tx: EntityManager,
    organizationId: string,
    deltas: LinkRollupDelta[],
  ): Promise<Map<string, MilestoneTimes>> {
    if (deltas.length === 0) return new Map();
    const before = await this.links.lockForMerge(
      tx,
      organizationId,
      deltas.map((d) => d.linkId),
    );
    await this.filing.lockFigures(
      tx,
      organizationId,
      before.map((row) => row.campaign_id),
    );
    await this.filing.figuresChanged(
      tx,
      organizationId,
      await this.links.mergeRollups(tx, organizationId, deltas, before),
    );
    return new Map(
      before.map((row) => [
        row.id,
        {
          firstStartedAt: row.first_started_at,
          firstEngagedAt: row.first_engaged_at,
          firstLeadSubmittedAt: row.first_lead_submitted_at,
          firstMeetingBookedAt: row.first_meeting_booked_at,
        },
      ]),
    );
  }

  async reset(tx: EntityManager, organizationId: string): Promise<void> {
    await this.filing.figuresChanged(tx, organizationId, await this.links.resetRollups(tx, organizationId));
  }

  async views(tx: EntityManager, organizationId: string, linkIds: string[]): Promise<Map<string, LinkView>> {
    const asOf = await this.progress.asOf(organizationId, tx);
    const rows = await this.links.findByIds(tx, organizationId, linkIds);
    return new Map(rows.map((row) => [row.id, toCustomLinkResponse(row, this.urls, asOf, this.clock.now())]));
  }

  /** Stage and activity filters of the link list may answer differently now. */
  changed(organizationId: string): Promise<void> {
    return this.counts.invalidate(organizationId, LINK_LIST);
  }
}
