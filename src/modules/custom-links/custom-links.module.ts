import { Module, type OnModuleInit } from '@nestjs/common';
import { CampaignsModule } from '../campaigns';
import { EngagementModule, RollupLinksRegistry } from '../engagement';
import { JobHandlers, JobsModule } from '../jobs';
import { CardSubjectsRegistry, ThumbnailsModule } from '../thumbnails';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { LinkCardSubjects } from './link-card-subjects';
import { LINK_JOB_TYPES, LinkCreationService } from './link-creation.service';
import { LinkRollups } from './link-rollups';
import { PublicLinksService } from './public-links.service';

/**
 * Custom Links for every role (routes: CustomLinksHttpModule). Their creation and card re-render
 * jobs run in the jobs module, their cards are drawn by the thumbnails module and their engagement
 * is folded by the engagement module: this module registers its job handler, its links as card
 * subjects and as rollup targets there; none of them depends on it.
 */
@Module({
  imports: [CampaignsModule, EngagementModule, JobsModule, ThumbnailsModule],
  providers: [CustomLinksRepository, CustomLinksService, LinkCreationService, PublicLinksService, LinkCardSubjects, LinkRollups],
  exports: [CustomLinksService, LinkCreationService, PublicLinksService],
})
export class CustomLinksModule implements OnModuleInit {
  constructor(
    private readonly jobHandlers: JobHandlers,
    private readonly linkCreation: LinkCreationService,
    private readonly cardSubjects: CardSubjectsRegistry,
    private readonly cards: LinkCardSubjects,
    private readonly rollupLinks: RollupLinksRegistry,
    private readonly rollups: LinkRollups,
  ) {}

  onModuleInit(): void {
    this.jobHandlers.register(LINK_JOB_TYPES, this.linkCreation);
    this.cardSubjects.register(this.cards);
    this.rollupLinks.register(this.rollups);
  }
}
