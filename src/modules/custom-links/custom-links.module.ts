import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { Clock } from '../../common/time/clock';
import { CampaignsModule } from '../campaigns';
import { EngagementModule } from '../engagement';
import { CustomLinkJobsModule, CustomLinkJobsWorkerModule } from '../custom-link-jobs';
import { SuppressionsModule } from '../suppressions';
import { ThumbnailsModule } from '../thumbnails';
import { WebhooksModule } from '../webhooks';
import { CustomLinksRepository } from './custom-links.repository';
import { CustomLinksService } from './custom-links.service';
import { LinkCardSubjects } from './link-card-subjects';
import { LinkAccessEvents } from './link-access-events';
import { LinkErasure } from './link-erasure';
import { LinkExport } from './link-export';
import { LinkJobFacts } from './link-job-facts';
import { LinkCreationService } from './link-creation.service';
import { LinkRollups } from './link-rollups';
import { LinksOfAccounts } from './links-of-accounts';
import { LinksOfCampaigns } from './links-of-campaigns';
import { PublicLinksService } from './public-links.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CustomLinksController } from './custom-links.controller';
import { LinkUrls } from './link-urls';
import { PublicLinksController } from './public-links.controller';

/**
 * Custom Links for every role (routes: CustomLinksHttpModule). Their creation and card re-render
 * jobs run in the custom-link-jobs module, their cards are drawn by the thumbnails module, their engagement is
 * folded by the engagement module, campaigns and accounts count them and exports read their list: none of these
 * depends on this module, which implements their ports (job handler and job facts, card subjects,
 * rollup links, campaign links, account links, export source).
 */
@Module({
  imports: [
    CampaignsModule,
    EngagementModule,
    CustomLinkJobsModule,
    ThumbnailsModule,
    IdempotencyRecordsModule,
    SuppressionsModule,
    WebhooksModule,
  ],
  providers: [
    CustomLinksRepository,
    CustomLinksService,
    LinkCreationService,
    PublicLinksService,
    LinkUrls,
    LinkCardSubjects,
    LinkRollups,
    LinkJobFacts,
    LinksOfCampaigns,
    LinksOfAccounts,
    LinkExport,
    LinkErasure,
    Clock,
    LinkAccessEvents,
  ],
  exports: [CustomLinksService, LinkCreationService, PublicLinksService, LinkErasure, LinkAccessEvents],
})
export class CustomLinksModule {}

/** The Custom Link and public link routes (API role only). */
@Module({
  imports: [CustomLinksModule, IdempotencyModule],
  controllers: [CustomLinksController, PublicLinksController],
})
export class CustomLinksHttpModule {}

/** Worker-only: the jobs runner, with the link job handler (CustomLinksModule). */
@Module({ imports: [CustomLinksModule, CustomLinkJobsWorkerModule] })
export class CustomLinksWorkerModule {}
