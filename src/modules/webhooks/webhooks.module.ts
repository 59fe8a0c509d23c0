import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { WEBHOOK_DELIVERIES_QUEUE } from './jobs/webhooks.queue';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Webhooks for every role (routes: WebhooksHttpModule; sending: WebhooksWorkerModule). Other modules
 * import it for WebhookOutbox only.
 */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOK_DELIVERIES_QUEUE }), IdempotencyRecordsModule, JobLeasesModule],
  providers: [WebhooksRepository, WebhookEndpointsService, WebhookOutbox],
  exports: [WebhookEndpointsService, WebhookOutbox, WebhooksRepository],
})
export class WebhooksModule {}
