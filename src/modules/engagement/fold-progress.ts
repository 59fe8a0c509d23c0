import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EngagementRepository } from './engagement.repository';

/**
 * How far the fold has come (docs/api.md §6.4): `asOf`, the instant before which every accepted
 * event is counted. Read before the rollups it qualifies (the fold only ever adds), or in the
 * transaction that reads them.
 */
@Injectable()
export class FoldProgress {
  constructor(private readonly engagement: EngagementRepository) {}

  asOf(organizationId: string, tx?: EntityManager): Promise<Date> {
    return this.engagement.foldedAsOf(organizationId, tx);
  }

  /** `asOf` and the version of the fold's aggregates (every write counts it up), read together. */
  state(organizationId: string): Promise<{ asOf: Date; version: string }> {
    return this.engagement.foldState(organizationId);
  }
}
