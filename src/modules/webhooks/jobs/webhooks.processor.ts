import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { WebhookDeliveriesService } from '../delivery/webhook-deliveries.service';
import { SEND_DELIVERY, WEBHOOK_DELIVERIES_QUEUE, type SendDeliveryPayload } from './webhooks.queue';

/** Webhook deliveries: ids-only payload; sending re-reads the row, so a job run twice sends a pending attempt at most once more. */
@Processor(WEBHOOK_DELIVERIES_QUEUE)
export class WebhooksProcessor {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Process({ name: SEND_DELIVERY, concurrency: 10 })
  async send(job: Job<SendDeliveryPayload>): Promise<void> {
    await this.deliveries.send(job.data.organizationId, job.data.deliveryId);
  }
}
