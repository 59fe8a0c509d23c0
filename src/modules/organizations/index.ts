export { OrganizationsModule } from './organizations.module';
export { OrganizationsService } from './organizations.service';
