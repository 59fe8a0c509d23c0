import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { WebhooksModule } from '../webhooks';
import { AccountLinkEvents } from './account-link-events';
import { EngagementRepository } from './engagement.repository';
import { EngagementService } from './engagement.service';
import { EventsService } from './events.service';
import { FoldProgress } from './fold-progress';
import { LINK_OPENS_QUEUE } from './jobs/link-opens.queue';
import { LinkEventCounts } from './link-event-counts';
import { LinkEventExport } from './link-event-export';
import { LinkOpensService } from './link-opens.service';
import { LinkFiling } from './link-filing';
import { LinkWebhooks } from './link-webhooks';
import { ROLLUP_LINKS } from './rollup-links';
import { TRACKED_SESSIONS } from './tracked-sessions';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CountryLookup } from '../../common/network/country-lookup';
import { SettingsModule } from '../settings';
import { EngagementController } from './engagement.controller';
import { AnalyticsCache } from './analytics-cache';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';
import { LinkOpensProcessor } from './jobs/link-opens.processor';
import { EventFold } from './event-fold.service';
import { EventRetention } from './event-retention';
import { FoldScheduler } from './jobs/fold-scheduler';

/**
 * Engagement tracking for every role (routes: EngagementHttpModule; worker: EngagementWorkerModule):
 * events and opens appended to the event log, which workers fold into link rollups, session
 * references, hourly aggregates and campaign engagement; the funnel and analytics over the log.
 * Links and sessions are read through the ports their modules implement (RollupLinks,
 * TrackedSessions), campaigns through their read model campaign_ids; link webhook events are recorded in the
 * fold's transaction (WebhookOutbox). Its event timeline is an export source, and the events of an
 * account's links are part of the account's activity (AccountActivitySource).
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: LINK_OPENS_QUEUE }),
    IdempotencyRecordsModule,
    WebhooksModule,
    SettingsModule,
    ROLLUP_LINKS.module,
    TRACKED_SESSIONS.module,
  ],
  providers: [
    CountryLookup,
    EngagementRepository,
    EngagementService,
    EventsService,
    EventFold,
    EventRetention,
    FoldProgress,
    LinkOpensService,
    LinkWebhooks,
    LinkEventExport,
    AccountLinkEvents,
    LinkFiling,
    LinkEventCounts,
  ],
  exports: [
    EngagementService,
    EventsService,
    EventFold,
    EventRetention,
    FoldProgress,
    LinkOpensService,
    LinkFiling,
    LinkEventCounts,
  ],
})
export class EngagementModule {}

/** Event ingestion, session references, campaign engagement, the funnel and analytics (API role only). */
@Module({
  imports: [EngagementModule, IdempotencyModule],
  controllers: [EngagementController, AnalyticsController],
  providers: [AnalyticsRepository, AnalyticsService, AnalyticsCache],
})
export class EngagementHttpModule {}

/** Worker-only: opens recorded from GET /l/{slug}, and the fold of the event log. */
@Module({ imports: [EngagementModule], providers: [LinkOpensProcessor, FoldScheduler] })
export class EngagementWorkerModule {}
