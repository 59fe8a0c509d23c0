import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { WebhooksModule } from '../webhooks';
import { EngagementRepository } from './engagement.repository';
import { EngagementService } from './engagement.service';
import { EventsService } from './events.service';
import { LINK_OPENS_QUEUE } from './jobs/link-opens.queue';
import { LinkEventExport } from './link-event-export';
import { LinkOpensService } from './link-opens.service';
import { LinkWebhooks } from './link-webhooks';
import { ROLLUP_LINKS } from './rollup-links';
import { SessionObservations } from './session-observations';
import { TRACKED_SESSIONS } from './tracked-sessions';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CountryLookup } from '../../common/network/country-lookup';
import { SettingsModule } from '../settings';
import { EngagementController } from './engagement.controller';
import { LinkOpensProcessor } from './jobs/link-opens.processor';

/**
 * Engagement tracking for every role (routes: EngagementHttpModule; worker: EngagementWorkerModule):
 * events and opens folded into link rollups, session references, campaign engagement, the funnel.
 * Links and sessions are read through the ports their modules implement (RollupLinks,
 * TrackedSessions), campaigns through their read model campaign_ids; link webhook events are recorded in the
 * batch's transaction (WebhookOutbox). Its event timeline is an export source.
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
    LinkOpensService,
    LinkWebhooks,
    SessionObservations,
    LinkEventExport,
  ],
  exports: [EngagementService, EventsService, LinkOpensService, SessionObservations],
})
export class EngagementModule {}

/** Event ingestion, session references, campaign engagement and the funnel (API role only). */
@Module({ imports: [EngagementModule, IdempotencyModule], controllers: [EngagementController] })
export class EngagementHttpModule {}

/** Worker-only: opens recorded from GET /l/{slug}. */
@Module({ imports: [EngagementModule], providers: [LinkOpensProcessor] })
export class EngagementWorkerModule {}
