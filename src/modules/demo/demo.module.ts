import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys';
import { CustomLinksModule } from '../custom-links';
import { AgentModule } from '../agent';
import { EngagementModule } from '../engagement';
import { CustomLinkJobsModule } from '../custom-link-jobs';
import { PlaybookModule } from '../playbook';
import { OrganizationsModule } from '../organizations';
import { SessionsModule } from '../sessions';
import { DemoSeedService } from './demo-seed.service';

/** demo:seed (CLI only). */
@Module({
  imports: [
    SessionsModule,
    OrganizationsModule,
    ApiKeysModule,
    CustomLinksModule,
    CustomLinkJobsModule,
    EngagementModule,
    PlaybookModule,
    AgentModule,
  ],
  providers: [DemoSeedService],
  exports: [DemoSeedService],
})
export class DemoModule {}
