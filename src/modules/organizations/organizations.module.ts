import { Module } from '@nestjs/common';
import { OrganizationEngagementModule } from '../engagement';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

@Module({
  imports: [OrganizationEngagementModule],
  providers: [OrganizationsRepository, OrganizationsService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
