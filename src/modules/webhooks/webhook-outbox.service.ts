import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LINK_SCOPED_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';
import { WebhooksRepository, type MessageLink, type RecordedMessage } from './webhooks.repository';

/**
 * A message to record: `data` is the resource as its GET returns it, or a function building it.
 * `link`: the link a `custom_link.*` message is about, with its campaign now; endpoints with a
 * filter get such a message only when it matches, and never one recorded without `link`.
 */
export interface OutboxMessage {
  type: WebhookEventType;
  data: unknown | (() => Promise<unknown>);
  link?: MessageLink;
}

/**
 * The port producers call inside the transaction of the change that causes an event: the message
 * commits with the change or not at all (outbox), and the workers send it. A `data` function is
 * called only when an endpoint is subscribed.
 */
@Injectable()
export class WebhookOutbox {
  constructor(private readonly webhooks: WebhooksRepository) {}

  record(
    tx: EntityManager,
    organizationId: string,
    type: WebhookEventType,
    data: OutboxMessage['data'],
  ): Promise<void> {
    return this.recordMany(tx, organizationId, [{ type, data }]);
  }

  /** The types among `types` that an active endpoint of the organization listens to. */
  async subscribed(
    tx: EntityManager,
    organizationId: string,
    types: readonly WebhookEventType[],
  ): Promise<Set<WebhookEventType>> {
    return (await this.webhooks.subscribedTypes(tx, organizationId, types)) as Set<WebhookEventType>;
  }

  /**
   * Several messages, in order, asking once per type whether anyone listens (a batch of opens costs
   * one query when none does), unless the caller read `subscribed` already in this transaction.
   * Filters are not asked here: a link event that every listening endpoint's filter excludes is
   * built, then matched in the recording statement, which stores nothing for it.
   */
  async recordMany(
    tx: EntityManager,
    organizationId: string,
    messages: OutboxMessage[],
    subscribed?: Set<WebhookEventType>,
  ): Promise<void> {
    const listened = new Map<WebhookEventType, boolean>();
    const recorded: RecordedMessage[] = [];
    for (const { type, data, link } of messages) {
      if (!listened.has(type))
        listened.set(
          type,
          subscribed ? subscribed.has(type) : await this.webhooks.anySubscribed(tx, organizationId, type),
        );
      if (!listened.get(type)) continue;
      const payload = typeof data === 'function' ? await (data as () => Promise<unknown>)() : data;
      recorded.push({
        eventType: type,
        body: JSON.stringify({ type, timestamp: new Date().toISOString(), data: payload }),
        linkScoped: LINK_SCOPED_EVENT_TYPES.includes(type),
        link: link ?? null,
      });
    }
    await this.webhooks.recordMessages(tx, organizationId, recorded);
  }
}
