import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { WebhookDeliveriesService } from './delivery/webhook-deliveries.service';
import { WEBHOOK_DELIVERIES_QUEUE } from './jobs/webhooks.queue';
import { WebhooksProcessor } from './jobs/webhooks.processor';
import { WebhooksModule } from './webhooks.module';

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
