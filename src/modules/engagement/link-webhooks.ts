import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { WebhookOutbox } from '../webhooks';
import type { NewEvent } from './engagement.repository';
import { LINK_EVENT_TYPES, linkEventCauses, type LinkEventType, type MilestoneTimes } from './rules/link-milestones';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/**
 * The link webhook events of a folded batch (custom_link.opened and the first-reached milestones),
 * recorded in the batch's transaction: data is the link as its GET returns it after the batch, plus
 * the triggering event's `eventId` and `occurredAt`. Each message names its link and the campaign
 * the link is filed in then (the `campaignId` of its data), which endpoint filters match.
 */
@Injectable()
export class LinkWebhooks {
  constructor(
    private readonly outbox: WebhookOutbox,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
  ) {}

  /**
   * One query says which link event types anyone listens to; none: nothing else is done. `fires`
   * tells the events that may cause one (a refold's replayed events cause none: they caused theirs).
   */
  async record(
    tx: EntityManager,
    organizationId: string,
    before: Map<string, MilestoneTimes>,
    events: NewEvent[],
    fires: (eventId: string) => boolean = () => true,
  ): Promise<void> {
    const listened = (await this.outbox.subscribed(tx, organizationId, LINK_EVENT_TYPES)) as Set<LinkEventType>;
    if (listened.size === 0) return;
    const causes = linkEventCauses(before, events).filter(
      (cause) => listened.has(cause.type) && fires(cause.event.eventId),
    );
    if (causes.length === 0) return;
    // Every cause is of a listened type, so each message's data is built: the views are read once, now.
    const views = await this.links.views(tx, organizationId, [...new Set(causes.map((c) => c.linkId))]);
    await this.outbox.recordMany(
      tx,
      organizationId,
      causes.map(({ type, linkId, event }) => {
        const view = views.get(linkId);
        return {
          type,
          link: { id: linkId, campaignId: view?.campaignId ?? null },
          data: { ...view, eventId: event.eventId, occurredAt: event.occurredAt.toISOString() },
        };
      }),
      listened,
    );
  }
}
