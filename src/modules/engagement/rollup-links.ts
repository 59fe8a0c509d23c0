import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Registration } from '../../common/registry/registration';
import type { DistinctKind, LinkStats } from './rules/engagement-rollup';
import type { MilestoneTimes } from './rules/link-milestones';

/** One link's share of an event batch: its new statistics and how many distinct values were new. */
export interface LinkRollupDelta {
  linkId: string;
  stats: LinkStats;
  newDistinct: (kind: DistinctKind) => number;
}

/** Link counts of a funnel or campaign (docs/api.md §2.10, §6.7). */
export interface LinkFunnelCounts {
  generated: number;
  active: number;
  opened: number;
  started: number;
  engaged: number;
  lead_submitted: number;
  meeting_clicked: number;
  meeting_booked: number;
  bot_scanned_only: number;
}

/** The links created in a window (bounds optional), optionally of one campaign. */
export interface LinkWindow {
  from?: Date;
  to?: Date;
  campaignId?: string;
}

/** SQL expressions (usually parameters) for a LinkWindow; a null from, to or campaign means unbounded. */
export interface LinkWindowSql {
  organization: string;
  from: string;
  to: string;
  campaign: string;
}

/**
 * The links events are about, as their owning module keeps them (the rollup is stored on the link
 * row, where the link list filters and sorts by it). The owner registers an implementation at
 * start: it depends on this module, not the reverse.
 */
export interface RollupLinks {
  /** The organization's links among these ids and slugs. */
  resolve(organizationId: string, ids: string[], slugs: string[]): Promise<{ id: string; slug: string }[]>;
  exists(organizationId: string, linkId: string): Promise<boolean>;
  /**
   * Merges a batch into the links' rollups inside the events' transaction, locking the links in id
   * order; returns each link's milestone times as they were before (under the lock).
   */
  merge(tx: EntityManager, organizationId: string, deltas: LinkRollupDelta[]): Promise<Map<string, MilestoneTimes>>;
  /** The links as their GET returns them, read in `tx`, by id. */
  views(tx: EntityManager, organizationId: string, linkIds: string[]): Promise<Map<string, object>>;
  /** After a committed batch changed rollups (the link list's filters may answer differently). */
  changed(organizationId: string): Promise<void>;
  /** The funnel's link counts over a window. */
  funnelCounts(organizationId: string, window: LinkWindow): Promise<LinkFunnelCounts>;
  /** SQL selecting the `id` of every link in a window, for reads that join it in one statement. */
  idsInWindowSql(window: LinkWindowSql): string;
  /** SQL: the campaign id of a link (both SQL expressions), or null. */
  campaignOfLinkSql(organization: string, link: string): string;
}

/** Holds the registered RollupLinks; one per application. */
@Injectable()
export class RollupLinksRegistry extends Registration<RollupLinks> {
  constructor() {
    super('rollup links');
  }
}
