import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { countWebhookEndpointDisabled, observeWebhookAttempt } from '../../../common/metrics/work-metrics';
import { JobLeases } from '../../../common/queue/job-leases';
import { requeue } from '../../../common/queue/job-options';
import { AppConfigService } from '../../../config/app-config';
import { MAX_ATTEMPTS, retryDelayMs, shouldDeactivate } from '../rules/retry-schedule';
import { signatureHeader } from '../rules/signing';
import { WebhooksRepository, type EndpointRow } from '../webhooks.repository';
import { sendWebhook } from './webhook-sender';
import { SEND_DELIVERY, WEBHOOK_DELIVERIES_QUEUE, type SendDeliveryPayload } from '../jobs/webhooks.queue';

/** Deliveries taken per dispatcher statement, and statements per round. */
const BATCH = 100;
const MAX_BATCHES = 10;

/**
 * Sending on the workers: the dispatcher queues the due deliveries nobody sends, one Bull job per
 * delivery row (jobId = its id); the processor sends it, records the attempt and schedules the next.
 * At least once: a worker that dies mid-send leaves the row pending with a lease that lapses, and
 * the dispatcher queues it again.
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger('WebhookDeliveries');

  constructor(
    @InjectQueue(WEBHOOK_DELIVERIES_QUEUE) private readonly queue: Queue<SendDeliveryPayload>,
    private readonly webhooks: WebhooksRepository,
    private readonly leases: JobLeases,
    private readonly config: AppConfigService,
  ) {}

  /** One dispatcher round; resolves how many deliveries went to the queue. */
  async dispatchDue(): Promise<number> {
    let queued = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const due = await this.webhooks.claimDue(this.leases.terms(), BATCH);
      for (const { organizationId, id } of due) {
        const found = await requeue(
          this.queue,
          SEND_DELIVERY,
          { organizationId, deliveryId: id },
          id,
          this.config.values.timeouts.redisCommandMs,
        ).catch((err: unknown) => {
          this.logger.warn({ deliveryId: id, err }, 'Could not queue a due webhook delivery');
          return 'live' as const;
        });
        if (found !== 'live') queued++;
      }
      if (due.length < BATCH) break;
    }
    return queued;
  }

  /** Sends one pending delivery (a no-op once it is not pending) and records what came of it. */
  async send(organizationId: string, deliveryId: string): Promise<void> {
    const sendable = await this.webhooks.leaseForSending(organizationId, deliveryId, this.leases.terms());
    if (!sendable) return;
    const { delivery, body, endpoint } = sendable;
    const { allowPrivateUrls, retryBaseMs } = this.config.values.webhooks;
    const result = endpoint.active
      ? await sendWebhook(endpoint.url, this.headers(endpoint, delivery.message_id, body), body, allowPrivateUrls)
      : { ok: false, status: null, durationMs: 0, error: 'the endpoint is inactive', outcome: null };
    // An inactive endpoint is not sent to: no attempt to count.
    if (result.outcome !== null) observeWebhookAttempt(result.outcome, result.durationMs);
    const now = new Date();
    const deactivate = !result.ok && endpoint.active && shouldDeactivate(endpoint.failing_since, now);
    const delay =
      result.ok || deactivate || !endpoint.active || delivery.attempt >= MAX_ATTEMPTS
        ? null
        : retryDelayMs(delivery.attempt, retryBaseMs);
    const recorded = await this.webhooks.recordAttempt(organizationId, delivery, {
      succeeded: result.ok,
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
      deactivate,
    });
    if (recorded && deactivate) {
      countWebhookEndpointDisabled();
      this.logger.warn(
        { endpointId: endpoint.id },
        'Webhook endpoint deactivated after five days of failed deliveries',
      );
    }
  }

  private headers(endpoint: EndpointRow, messageId: string, body: string): Record<string, string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const overlapping =
      endpoint.previous_secret &&
      endpoint.previous_secret_until &&
      endpoint.previous_secret_until.getTime() > Date.now();
    const secrets = overlapping ? [endpoint.secret, endpoint.previous_secret as string] : [endpoint.secret];
    return {
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, messageId, timestamp, body),
    };
  }
}
