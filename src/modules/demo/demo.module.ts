import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { CustomLinksModule } from '../custom-links/custom-links.module';
import { PlaybookModule } from '../playbook/playbook.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { DemoSeedService } from './demo-seed.service';

/** demo:seed (CLI only). */
@Module({
  imports: [SessionsModule, OrganizationsModule, ApiKeysModule, CustomLinksModule, PlaybookModule],
  providers: [DemoSeedService],
  exports: [DemoSeedService],
})
export class DemoModule {}
