import { Injectable } from '@nestjs/common';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Erasure of a person from the webhook messages (docs/api.md §18.2): a message whose body names them
 * is deleted with its deliveries, sent or pending (a pending one is then never sent).
 */
@Injectable()
export class WebhookErasure {
  constructor(private readonly webhooks: WebhooksRepository) {}

  /** Deletes the messages containing any of `patterns`; returns how many deliveries went with them. */
  deleteMatching(organizationId: string, patterns: string[]): Promise<number> {
    return this.webhooks.deleteMessagesMatching(organizationId, patterns);
  }
}
