import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns';
import { CustomLinkJobsRepository } from './custom-link-jobs.repository';
import { CustomLinkJobsService } from './custom-link-jobs.service';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { JobSettlementService } from './job-settlement.service';
import { EngagementModule } from '../engagement';
import { CUSTOM_LINK_JOBS_QUEUE, THUMBNAILS_QUEUE } from './jobs/queues';
import { PublicLinksService } from './public-links.service';
import { ThumbnailRendersService } from './thumbnails/thumbnail-renders.service';
import { PgThumbnailStore } from './thumbnails/pg-thumbnail.store';
import { THUMBNAIL_STORE } from './thumbnails/thumbnail-store';
import { ThumbnailsRepository } from './thumbnails/thumbnails.repository';

/** Custom Links, their jobs and thumbnails, for every role (routes: CustomLinksHttpModule; workers: CustomLinksJobsModule). */
@Module({
  imports: [BullModule.registerQueue({ name: CUSTOM_LINK_JOBS_QUEUE }, { name: THUMBNAILS_QUEUE }), CampaignsModule, EngagementModule],
  providers: [
    CustomLinksRepository,
    CustomLinkJobsRepository,
    ThumbnailsRepository,
    CustomLinksService,
    CustomLinkJobsService,
    JobSettlementService,
    ThumbnailRendersService,
    PublicLinksService,
    PgThumbnailStore,
    { provide: THUMBNAIL_STORE, useExisting: PgThumbnailStore },
  ],
  exports: [CustomLinksService, CustomLinkJobsService, ThumbnailRendersService, PublicLinksService],
})
export class CustomLinksModule {}
