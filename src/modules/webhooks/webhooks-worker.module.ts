import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { WebhookDeliveriesService } from './delivery/webhook-deliveries.service';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';
import { WEBHOOK_DELIVERIES_QUEUE } from './jobs/webhooks.queue';
import { WebhooksProcessor } from './jobs/webhooks.processor';
import { WebhooksModule } from './webhooks.module';

/** Worker-only: the dispatcher and the processor that send deliveries. */
@Module({
  imports: [WebhooksModule, BullModule.registerQueue({ name: WEBHOOK_DELIVERIES_QUEUE }), JobLeasesModule],
  providers: [WebhookDeliveriesService, WebhookDispatcher, WebhooksProcessor],
})
export class WebhooksWorkerModule {}
