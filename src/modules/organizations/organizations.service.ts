import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { OrganizationEngagement } from '../engagement';
import { OrganizationsRepository } from './organizations.repository';

export interface OrganizationSummary {
  id: string;
  name: string;
}

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly engagement: OrganizationEngagement,
  ) {}

  async create(name: string): Promise<OrganizationSummary> {
    const organization = await this.organizations.insert(uuidv7(), name);
    return { id: organization.id, name: organization.name };
  }

  /** Whether any organization exists (an empty database has none). */
  async any(): Promise<boolean> {
    return this.organizations.any();
  }

  async exists(id: string): Promise<boolean> {
    return this.organizations.exists(id);
  }

  /**
   * Deletes the organization with everything it holds, in one transaction: the rows that reference
   * it go by their foreign keys, the engagement rows that do not (the event log and what it derives)
   * by the engagement module, each statement within the organization (on Citus, its shards). Whether
   * it existed.
   */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await this.engagement.deleteRows(tx, id);
      return this.organizations.delete(tx, id);
    });
  }
}
