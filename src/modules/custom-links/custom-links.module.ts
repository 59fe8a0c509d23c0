import { BullModule } from '@nestjs/bull';
import { Module, type OnModuleInit } from '@nestjs/common';
import { CampaignsModule } from '../campaigns';
import { EngagementModule } from '../engagement';
import { CardSubjectsRegistry, ThumbnailsModule } from '../thumbnails';
import { CustomLinkJobsRepository } from './custom-link-jobs.repository';
import { CustomLinkJobsService } from './custom-link-jobs.service';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { CUSTOM_LINK_JOBS_QUEUE } from './jobs/queues';
import { JobSettlementService } from './job-settlement.service';
import { LinkCardSubjects } from './link-card-subjects';
import { PublicLinksService } from './public-links.service';

/**
 * Custom Links and their creation jobs for every role (routes: CustomLinksHttpModule; workers:
 * CustomLinksJobsModule). Links are the subjects of share cards: this module registers them with
 * the thumbnails module, which depends on nothing here.
 */
@Module({
  imports: [BullModule.registerQueue({ name: CUSTOM_LINK_JOBS_QUEUE }), CampaignsModule, EngagementModule, ThumbnailsModule],
  providers: [CustomLinksRepository, CustomLinkJobsRepository, CustomLinksService, CustomLinkJobsService, JobSettlementService, PublicLinksService, LinkCardSubjects],
  exports: [CustomLinksService, CustomLinkJobsService, PublicLinksService],
})
export class CustomLinksModule implements OnModuleInit {
  constructor(
    private readonly cardSubjects: CardSubjectsRegistry,
    private readonly links: LinkCardSubjects,
  ) {}

  onModuleInit(): void {
    this.cardSubjects.register(this.links);
  }
}
