import { Injectable, Logger } from '@nestjs/common';
import { countWebhookEndpointDisabled, observeWebhookAttempt } from '../../../common/metrics/work-metrics';
import { JobLeases, type LeaseTerms } from '../../../common/queue/job-leases';
import type { LapsedJob } from '../../../common/queue/job-reaper';
import { AppConfigService } from '../../../config/app-config';
import { MAX_ATTEMPTS, retryDelayMs, shouldDeactivate } from '../rules/retry-schedule';
import { signatureHeader } from '../rules/signing';
import { WebhooksRepository, type EndpointRow } from '../webhooks.repository';
import { sendWebhook } from './webhook-sender';

/**
 * Sending on the workers: the reaper queues the due deliveries nobody sends (WebhooksProcessor), one Bull job per
 * delivery row (jobId = its id); the processor sends it, records the attempt and schedules the next.
 * At least once: a worker that dies mid-send leaves the row pending with a lease that lapses, and
 * the reaper queues it again.
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger('WebhookDeliveries');

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly leases: JobLeases,
    private readonly config: AppConfigService,
  ) {}

  /** Due pending deliveries nobody sends, leased one term forward (the reaper's sweep of this kind). */
  claimDue(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.webhooks.claimDue(lease, limit);
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
