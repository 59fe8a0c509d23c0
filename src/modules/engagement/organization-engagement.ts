import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EngagementRepository } from './engagement.repository';

/** The engagement side of deleting an organization: the rows its foreign keys do not delete. */
@Injectable()
export class OrganizationEngagement {
  constructor(private readonly engagement: EngagementRepository) {}

  /** In the caller's transaction, the one that deletes the organization. */
  deleteRows(tx: EntityManager, organizationId: string): Promise<void> {
    return this.engagement.deleteOrganizationRows(tx, organizationId);
  }
}

/** OrganizationEngagement alone, for the organizations module, which every role and the CLI load: no queue, no Redis. */
@Module({ providers: [EngagementRepository, OrganizationEngagement], exports: [OrganizationEngagement] })
export class OrganizationEngagementModule {}
