import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { WEBHOOK_DELIVERIES_QUEUE } from './jobs/webhooks.queue';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookErasure } from './webhook-erasure';
import { WebhookHistory } from './webhook-history';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksRepository } from './webhooks.repository';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { WebhooksController } from './webhooks.controller';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { WebhookDeliveriesService } from './delivery/webhook-deliveries.service';
import { WebhooksProcessor } from './jobs/webhooks.processor';

/**
 * Webhooks for every role (routes: WebhooksHttpModule; sending: WebhooksWorkerModule). Other modules
 * import it for WebhookOutbox; privacy for WebhookErasure; maintenance for WebhookHistory.
 */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOK_DELIVERIES_QUEUE }), IdempotencyRecordsModule, JobLeasesModule],
  providers: [WebhooksRepository, WebhookEndpointsService, WebhookOutbox, WebhookErasure, WebhookHistory],
  exports: [WebhookEndpointsService, WebhookOutbox, WebhooksRepository, WebhookErasure, WebhookHistory],
})
export class WebhooksModule {}

/** The webhook endpoint routes (API role only). */
@Module({ imports: [WebhooksModule, IdempotencyModule], controllers: [WebhooksController] })
export class WebhooksHttpModule {}

/** Worker-only: the processor that sends deliveries, its due ones queued by the reaper. */
@Module({
  imports: [
    WebhooksModule,
    BullModule.registerQueue({ name: WEBHOOK_DELIVERIES_QUEUE }),
    JobLeasesModule,
    JobReaperModule,
  ],
  providers: [WebhookDeliveriesService, WebhooksProcessor],
})
export class WebhooksWorkerModule {}
