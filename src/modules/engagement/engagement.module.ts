import { BullModule } from '@nestjs/bull';
import { Module, type OnModuleInit } from '@nestjs/common';
import { ExportsModule, ExportSources } from '../exports';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { WebhooksModule } from '../webhooks';
import { EngagementRepository } from './engagement.repository';
import { EngagementService } from './engagement.service';
import { EventsService } from './events.service';
import { LINK_OPENS_QUEUE } from './jobs/link-opens.queue';
import { LinkEventExport } from './link-event-export';
import { LinkOpensService } from './link-opens.service';
import { LinkWebhooks } from './link-webhooks';
import { RollupLinksRegistry } from './rollup-links';
import { SessionObservations } from './session-observations';
import { TrackedSessionsRegistry } from './tracked-sessions';

/**
 * Engagement tracking for every role (routes: EngagementHttpModule; worker: EngagementJobsModule):
 * events and opens folded into link rollups, session references, campaign engagement, the funnel.
 * Links and sessions are read through what their modules register (RollupLinks, TrackedSessions);
 * link webhook events are recorded in the batch's transaction (WebhookOutbox).
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: LINK_OPENS_QUEUE }),
    IdempotencyRecordsModule,
    WebhooksModule,
    ExportsModule,
  ],
  providers: [
    EngagementRepository,
    EngagementService,
    EventsService,
    LinkOpensService,
    LinkWebhooks,
    RollupLinksRegistry,
    TrackedSessionsRegistry,
    SessionObservations,
    LinkEventExport,
  ],
  exports: [
    EngagementService,
    EventsService,
    LinkOpensService,
    RollupLinksRegistry,
    TrackedSessionsRegistry,
    SessionObservations,
  ],
})
export class EngagementModule implements OnModuleInit {
  constructor(
    private readonly exportSources: ExportSources,
    private readonly linkEventExport: LinkEventExport,
  ) {}

  onModuleInit(): void {
    this.exportSources.register(this.linkEventExport);
  }
}
