import { InjectQueue, Process, Processor } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { AppConfigService } from '../../../config/app-config';
import { WebhookDeliveriesService } from '../delivery/webhook-deliveries.service';
import { SEND_DELIVERY, WEBHOOK_DELIVERIES_QUEUE, type SendDeliveryPayload } from './webhooks.queue';

/**
 * Webhook deliveries: ids-only payload; sending re-reads the row, so a job run twice sends a pending
 * attempt at most once more. The reaper queues, every WEBHOOK_DISPATCH_INTERVAL_MS, the due
 * deliveries nobody sends: retries that came due and those of a worker that died mid-send.
 */
@Processor(WEBHOOK_DELIVERIES_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class WebhooksProcessor implements ReapableJobs<SendDeliveryPayload> {
  readonly kind = 'webhook delivery';
  readonly jobName = SEND_DELIVERY;
  readonly routine = true;
  readonly sweepIntervalMs: number;

  constructor(
    private readonly deliveries: WebhookDeliveriesService,
    @InjectQueue(WEBHOOK_DELIVERIES_QUEUE) readonly queue: Queue<SendDeliveryPayload>,
    config: AppConfigService,
  ) {
    this.sweepIntervalMs = config.values.webhooks.dispatchIntervalMs;
  }

  @Process({ name: SEND_DELIVERY, concurrency: 10 })
  async send(job: Job<SendDeliveryPayload>): Promise<void> {
    await this.deliveries.send(job.data.organizationId, job.data.deliveryId);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.deliveries.claimDue(lease, limit);
  }

  payload(delivery: LapsedJob): SendDeliveryPayload {
    return { organizationId: delivery.organizationId, deliveryId: delivery.id };
  }
}
