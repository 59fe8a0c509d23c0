import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { CustomLinksModule } from '../custom-links/custom-links.module';
import { AgentModule } from '../agent';
import { PlaybookModule } from '../playbook';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { DemoSeedService } from './demo-seed.service';

/** demo:seed (CLI only). */
@Module({
  imports: [SessionsModule, OrganizationsModule, ApiKeysModule, CustomLinksModule, PlaybookModule, AgentModule],
  providers: [DemoSeedService],
  exports: [DemoSeedService],
})
export class DemoModule {}
