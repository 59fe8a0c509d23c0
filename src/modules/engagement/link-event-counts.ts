import { Injectable } from '@nestjs/common';
import { EngagementRepository } from './engagement.repository';
import { EVENT_TYPES, type EventType } from './rules/engagement-rollup';

/** What a link's event log holds, counted: every event, folded or not, bots and internal traffic included. */
export interface LinkEventCount {
  customLinkId: string;
  total: number;
  /** Every event type, 0 when the link has none of it. */
  byType: Record<EventType, number>;
  /** Of the total, those flagged as bots (docs/api.md §6.3). */
  bot: number;
  /** Of the total, internal traffic (docs/api.md §6.8). */
  internal: number;
}

/** Event counts per link, for the right of access (docs/api.md §18.4): a summary, never the events. */
@Injectable()
export class LinkEventCounts {
  constructor(private readonly engagement: EngagementRepository) {}

  /** One count per link, in the order of `linkIds` (zeros for a link without events). */
  async countsOf(organizationId: string, linkIds: string[]): Promise<LinkEventCount[]> {
    const counted = new Map<string, LinkEventCount>(
      linkIds.map((customLinkId) => [
        customLinkId,
        {
          customLinkId,
          total: 0,
          byType: Object.fromEntries(EVENT_TYPES.map((type) => [type, 0])) as Record<EventType, number>,
          bot: 0,
          internal: 0,
        },
      ]),
    );
    for (const row of await this.engagement.eventCountsOfLinks(organizationId, linkIds)) {
      const count = counted.get(row.custom_link_id);
      if (!count) continue;
      count.total += row.events;
      count.byType[row.type] += row.events;
      count.bot += row.bot;
      count.internal += row.internal;
    }
    return [...counted.values()];
  }
}
