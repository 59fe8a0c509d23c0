import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DistinctKind, LinkStats } from './rules/engagement-rollup';

/** One link's share of an event batch: its new statistics and how many distinct values were new. */
export interface LinkRollupDelta {
  linkId: string;
  stats: LinkStats;
  newDistinct: (kind: DistinctKind) => number;
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
  /** Merges a batch into the links' rollups inside the events' transaction, locking the links in id order. */
  merge(tx: EntityManager, organizationId: string, deltas: LinkRollupDelta[]): Promise<void>;
  /** After a committed batch changed rollups (the link list's filters may answer differently). */
  changed(organizationId: string): Promise<void>;
}

/** Holds the registered RollupLinks; one per application. */
@Injectable()
export class RollupLinksRegistry {
  private links: RollupLinks | null = null;

  register(links: RollupLinks): void {
    this.links = links;
  }

  get(): RollupLinks {
    if (!this.links) throw new Error('No rollup links registered: the module that owns links must register at start');
    return this.links;
  }
}
