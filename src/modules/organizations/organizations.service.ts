import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { OrganizationsRepository } from './organizations.repository';

export interface OrganizationSummary {
  id: string;
  name: string;
}

@Injectable()
export class OrganizationsService {
  constructor(private readonly organizations: OrganizationsRepository) {}

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
}
