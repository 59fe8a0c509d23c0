import type { EntityManager } from 'typeorm';
import { definePort } from '../../common/wiring/port';
import type { DistinctKind, LinkStats } from './rules/engagement-rollup';
import type { MilestoneTimes } from './rules/link-milestones';

/** One link's share of an event batch: its new statistics and how many distinct values were new. */
export interface LinkRollupDelta {
  linkId: string;
  stats: LinkStats;
  newDistinct: (kind: DistinctKind) => number;
}

/** A link as its GET returns it; its campaign decides which filtered webhook endpoints hear of it. */
export interface LinkView {
  campaignId: string | null;
}

/**
 * The links events are about, as their owning module keeps them (the rollup is stored on the link
 * row, where the link list filters and sorts by it). The owner implements the port: it depends on
 * this module, not the reverse.
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
  /** Empties the organization's link rollups in `tx`, before a refold folds the whole log again. */
  reset(tx: EntityManager, organizationId: string): Promise<void>;
  /** The links as their GET returns them, read in `tx`, by id. */
  views(tx: EntityManager, organizationId: string, linkIds: string[]): Promise<Map<string, LinkView>>;
  /** After a committed batch changed rollups (the link list's filters may answer differently). */
  changed(organizationId: string): Promise<void>;
}

export const ROLLUP_LINKS = definePort<RollupLinks>('rollup links');
