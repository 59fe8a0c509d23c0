import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { CustomLinkJobsModule } from '../custom-link-jobs';
import { CardRenderer, renderWorkerProvider } from './card-renderer';
import { CARD_SUBJECTS } from './card-subjects';
import { THUMBNAILS_QUEUE } from './jobs/thumbnails.queue';
import { PgThumbnailStore } from './pg-thumbnail.store';
import { LogoFetcher } from './rendering/logo-fetcher';
import { ThumbnailRendersService } from './thumbnail-renders.service';
import { THUMBNAIL_STORE } from './thumbnail-store';
import { ThumbnailsRepository } from './thumbnails.repository';
import { ThumbnailsService } from './thumbnails.service';
import { ThumbnailsController } from './thumbnails.controller';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { ThumbnailsProcessor } from './jobs/thumbnails.processor';

/**
 * Share cards for every role (route: ThumbnailsHttpModule; worker: ThumbnailsWorkerModule): renders
 * queued and drawn, cards stored (PostgreSQL by default) and served. What a card shows comes from
 * the CardSubjects its owner implements; a render belongs to a job, which settles after its last
 * render (CustomLinkJobsService).
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: THUMBNAILS_QUEUE }),
    JobLeasesModule,
    CustomLinkJobsModule,
    CARD_SUBJECTS.module,
  ],
  providers: [
    ThumbnailsRepository,
    ThumbnailRendersService,
    ThumbnailsService,
    CardRenderer,
    renderWorkerProvider,
    { provide: LogoFetcher, useFactory: () => new LogoFetcher() },
    PgThumbnailStore,
    { provide: THUMBNAIL_STORE, useExisting: PgThumbnailStore },
  ],
  exports: [ThumbnailRendersService, ThumbnailsService],
})
export class ThumbnailsModule {}

/** The public card route (API role only). */
@Module({ imports: [ThumbnailsModule], controllers: [ThumbnailsController] })
export class ThumbnailsHttpModule {}

/** Worker-only: share-card renders, on their own queue so creation never waits behind drawing. */
@Module({
  imports: [ThumbnailsModule, BullModule.registerQueue({ name: THUMBNAILS_QUEUE }), JobReaperModule],
  providers: [ThumbnailsProcessor],
})
export class ThumbnailsWorkerModule {}
