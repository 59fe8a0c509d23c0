import { Injectable } from '@nestjs/common';
import { WebhooksRepository } from './webhooks.repository';

/** How long a webhook message and its deliveries are kept: its history (docs/api.md §16.4). */
export const MESSAGE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** Messages deleted per statement by the sweep. */
const SWEEP_BATCH = 500;

/**
 * The lifetime of webhook messages: a message is deleted with its deliveries 30 days after it was
 * recorded, once no delivery of it is still pending (retries end about 27.5 hours after the first
 * attempt). Its payload is a session's detail or a link with its prospect fields: kept no longer than
 * the delivery history needs it. Swept hourly by the maintenance worker.
 */
@Injectable()
export class WebhookHistory {
  constructor(private readonly webhooks: WebhooksRepository) {}

  /** Deletes the messages past their lifetime, in batches; resolves how many. */
  async sweepOld(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - MESSAGE_LIFETIME_MS);
    let deleted = 0;
    for (;;) {
      const batch = await this.webhooks.deleteMessagesBefore(cutoff, SWEEP_BATCH);
      deleted += batch;
      if (batch < SWEEP_BATCH) return deleted;
    }
  }
}
