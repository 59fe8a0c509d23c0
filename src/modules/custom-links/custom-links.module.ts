import { Module, type OnModuleInit } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { CampaignLinksRegistry, CampaignsModule } from '../campaigns';
import { EngagementModule, RollupLinksRegistry } from '../engagement';
import { ExportsModule, ExportSources } from '../exports';
import { JobHandlers, JobsModule, JobWorkFactsRegistry } from '../jobs';
import { CardSubjectsRegistry, ThumbnailsModule } from '../thumbnails';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { LinkCardSubjects } from './link-card-subjects';
import { LinkExport } from './link-export';
import { LinkJobFacts } from './link-job-facts';
import { LINK_JOB_TYPES, LinkCreationService } from './link-creation.service';
import { LinkRollups } from './link-rollups';
import { LinksOfCampaigns } from './links-of-campaigns';
import { PublicLinksService } from './public-links.service';

/**
 * Custom Links for every role (routes: CustomLinksHttpModule). Their creation and card re-render
 * jobs run in the jobs module, their cards are drawn by the thumbnails module, their engagement is
 * folded by the engagement module and campaigns count them: this module registers its job handler
 * and job facts, its links as card subjects, as rollup targets as campaign links and its list as an export source there; none
 * of them depends on it.
 */
@Module({
  imports: [CampaignsModule, EngagementModule, JobsModule, ThumbnailsModule, IdempotencyRecordsModule, ExportsModule],
  providers: [
    CustomLinksRepository,
    CustomLinksService,
    LinkCreationService,
    PublicLinksService,
    LinkCardSubjects,
    LinkRollups,
    LinkJobFacts,
    LinksOfCampaigns,
    LinkExport,
  ],
  exports: [CustomLinksService, LinkCreationService, PublicLinksService],
})
export class CustomLinksModule implements OnModuleInit {
  constructor(
    private readonly jobHandlers: JobHandlers,
    private readonly linkCreation: LinkCreationService,
    private readonly jobWorkFacts: JobWorkFactsRegistry,
    private readonly jobFacts: LinkJobFacts,
    private readonly cardSubjects: CardSubjectsRegistry,
    private readonly cards: LinkCardSubjects,
    private readonly rollupLinks: RollupLinksRegistry,
    private readonly rollups: LinkRollups,
    private readonly campaignLinks: CampaignLinksRegistry,
    private readonly linksOfCampaigns: LinksOfCampaigns,
    private readonly exportSources: ExportSources,
    private readonly linkExport: LinkExport,
  ) {}

  onModuleInit(): void {
    this.jobHandlers.register(LINK_JOB_TYPES, this.linkCreation);
    this.cardSubjects.register(this.cards);
    this.rollupLinks.register(this.rollups);
    this.campaignLinks.register(this.linksOfCampaigns);
    this.jobWorkFacts.register(this.jobFacts);
    this.exportSources.register(this.linkExport);
  }
}
