import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { OrganizationEntity } from './entities/organization.entity';

@Injectable()
export class OrganizationsRepository {
  constructor(@InjectRepository(OrganizationEntity) private readonly organizations: Repository<OrganizationEntity>) {}

  async insert(id: string, name: string): Promise<OrganizationEntity> {
    return this.organizations.save(this.organizations.create({ id, name }));
  }

  async any(): Promise<boolean> {
    return this.organizations.exists({});
  }

  async exists(id: string): Promise<boolean> {
    return this.organizations.exists({ where: { id } });
  }
}
