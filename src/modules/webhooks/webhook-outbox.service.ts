import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WebhookEventType } from './webhook-event-types';
import { WebhooksRepository } from './webhooks.repository';

/**
 * The port producers call inside the transaction of the change that causes an event: the message
 * commits with the change or not at all (outbox), and the workers send it. `data` is the resource
 * as its GET returns it; a function is called only when an endpoint is subscribed.
 */
@Injectable()
export class WebhookOutbox {
  constructor(private readonly webhooks: WebhooksRepository) {}

  async record(tx: EntityManager, organizationId: string, type: WebhookEventType, data: unknown | (() => Promise<unknown>)): Promise<void> {
    if (!(await this.webhooks.anySubscribed(tx, organizationId, type))) return;
    const payload = typeof data === 'function' ? await (data as () => Promise<unknown>)() : data;
    const timestamp = new Date().toISOString();
    await this.webhooks.recordMessage(tx, organizationId, type, () => JSON.stringify({ type, timestamp, data: payload }));
  }
}
