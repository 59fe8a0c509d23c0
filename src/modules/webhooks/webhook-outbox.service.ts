import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WebhookEventType } from './webhook-event-types';
import { WebhooksRepository } from './webhooks.repository';

/** A message to record: `data` is the resource as its GET returns it, or a function building it. */
export interface OutboxMessage {
  type: WebhookEventType;
  data: unknown | (() => Promise<unknown>);
}

/**
 * The port producers call inside the transaction of the change that causes an event: the message
 * commits with the change or not at all (outbox), and the workers send it. A `data` function is
 * called only when an endpoint is subscribed.
 */
@Injectable()
export class WebhookOutbox {
  constructor(private readonly webhooks: WebhooksRepository) {}

  record(tx: EntityManager, organizationId: string, type: WebhookEventType, data: OutboxMessage['data']): Promise<void> {
    return this.recordMany(tx, organizationId, [{ type, data }]);
  }

  /** Several messages, in order, asking once per type whether anyone listens (a batch of opens costs one query when none does). */
  async recordMany(tx: EntityManager, organizationId: string, messages: OutboxMessage[]): Promise<void> {
    const subscribed = new Map<WebhookEventType, boolean>();
    for (const { type, data } of messages) {
      if (!subscribed.has(type)) subscribed.set(type, await this.webhooks.anySubscribed(tx, organizationId, type));
      if (!subscribed.get(type)) continue;
      const payload = typeof data === 'function' ? await (data as () => Promise<unknown>)() : data;
      const timestamp = new Date().toISOString();
      await this.webhooks.recordMessage(tx, organizationId, type, () => JSON.stringify({ type, timestamp, data: payload }));
    }
  }
}
