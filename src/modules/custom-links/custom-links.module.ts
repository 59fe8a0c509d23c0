import { Module, type OnModuleInit } from '@nestjs/common';
import { CampaignsModule } from '../campaigns';
import { EngagementModule } from '../engagement';
import { JobHandlers, JobsModule } from '../jobs';
import { CardSubjectsRegistry, ThumbnailsModule } from '../thumbnails';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { LinkCardSubjects } from './link-card-subjects';
import { LINK_JOB_TYPES, LinkCreationService } from './link-creation.service';
import { PublicLinksService } from './public-links.service';

/**
 * Custom Links for every role (routes: CustomLinksHttpModule). Their creation and card re-render
 * jobs run in the jobs module and their cards are drawn by the thumbnails module: this module
 * registers its job handler and its links as card subjects there; neither depends on it.
 */
@Module({
  imports: [CampaignsModule, EngagementModule, JobsModule, ThumbnailsModule],
  providers: [CustomLinksRepository, CustomLinksService, LinkCreationService, PublicLinksService, LinkCardSubjects],
  exports: [CustomLinksService, LinkCreationService, PublicLinksService],
})
export class CustomLinksModule implements OnModuleInit {
  constructor(
    private readonly jobHandlers: JobHandlers,
    private readonly linkCreation: LinkCreationService,
    private readonly cardSubjects: CardSubjectsRegistry,
    private readonly links: LinkCardSubjects,
  ) {}

  onModuleInit(): void {
    this.jobHandlers.register(LINK_JOB_TYPES, this.linkCreation);
    this.cardSubjects.register(this.links);
  }
}
