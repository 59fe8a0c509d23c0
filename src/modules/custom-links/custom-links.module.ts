import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { CountCache } from '../../common/pagination/count-cache';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CustomLinkJobsRepository } from './custom-link-jobs.repository';
import { CustomLinkJobsService } from './custom-link-jobs.service';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { JobSettlementService } from './job-settlement.service';
import { EngagementRepository } from './engagement/engagement.repository';
import { EngagementService } from './engagement/engagement.service';
import { EventsService } from './engagement/events.service';
import { CUSTOM_LINK_JOBS_QUEUE, LINK_OPENS_QUEUE, THUMBNAILS_QUEUE } from './jobs/queues';
import { PublicLinksService } from './public-links.service';
import { ThumbnailRendersService } from './thumbnails/thumbnail-renders.service';
import { PgThumbnailStore } from './thumbnails/pg-thumbnail.store';
import { THUMBNAIL_STORE } from './thumbnails/thumbnail-store';
import { ThumbnailsRepository } from './thumbnails/thumbnails.repository';

/** Custom Links, their jobs and thumbnails, for every role (routes: CustomLinksHttpModule; workers: CustomLinksJobsModule). */
@Module({
  imports: [BullModule.registerQueue({ name: CUSTOM_LINK_JOBS_QUEUE }, { name: THUMBNAILS_QUEUE }, { name: LINK_OPENS_QUEUE }), CampaignsModule],
  providers: [
    CustomLinksRepository,
    CustomLinkJobsRepository,
    ThumbnailsRepository,
    CustomLinksService,
    CustomLinkJobsService,
    JobSettlementService,
    ThumbnailRendersService,
    PublicLinksService,
    CountCache,
    EngagementRepository,
    EngagementService,
    EventsService,
    PgThumbnailStore,
    { provide: THUMBNAIL_STORE, useExisting: PgThumbnailStore },
  ],
  exports: [CustomLinksService, CustomLinkJobsService, ThumbnailRendersService, PublicLinksService, EngagementService, EventsService],
})
export class CustomLinksModule {}
