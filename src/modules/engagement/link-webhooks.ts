import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WebhookOutbox } from '../webhooks';
import type { NewEvent } from './engagement.repository';
import { linkEventCauses, type MilestoneTimes } from './rules/link-milestones';
import { RollupLinksRegistry } from './rollup-links';

/**
 * The link webhook events of a folded batch (custom_link.opened and the first-reached milestones),
 * recorded in the batch's transaction: data is the link as its GET returns it after the batch, plus
 * the triggering event's `eventId` and `occurredAt`.
 */
@Injectable()
export class LinkWebhooks {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly links: RollupLinksRegistry,
  ) {}

  async record(tx: EntityManager, organizationId: string, before: Map<string, MilestoneTimes>, events: NewEvent[]): Promise<void> {
    const causes = linkEventCauses(before, events);
    if (causes.length === 0) return;
    let views: Promise<Map<string, object>> | undefined;
    const viewsOnce = () => (views ??= this.links.get().views(tx, organizationId, [...new Set(causes.map((c) => c.linkId))]));
    await this.outbox.recordMany(
      tx,
      organizationId,
      causes.map(({ type, linkId, event }) => ({
        type,
        data: async () => ({ ...(await viewsOnce()).get(linkId), eventId: event.eventId, occurredAt: event.occurredAt.toISOString() }),
      })),
    );
  }
}
