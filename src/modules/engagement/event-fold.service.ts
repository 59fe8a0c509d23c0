import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { observeFoldLag } from '../../common/metrics/app-metrics';
import { InjectPort } from '../../common/wiring/port';
import {
  addEvent,
  countsAsEngagement,
  DISTINCT_KINDS,
  earlier,
  emptyStats,
  STAGE_EVIDENCE,
  type DistinctKind,
  type LinkStats,
  type StageMark,
} from './rules/engagement-rollup';
import {
  EngagementRepository,
  type EventHour,
  type LoggedEvent,
  type PendingBatch,
  type SessionTimes,
} from './engagement.repository';
import { facetCountsOf } from './rules/facet-counts';
import { LinkWebhooks } from './link-webhooks';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

const SESSION_TIME: Record<StageMark, 'openedAt' | 'startedAt' | 'engagedAt'> = {
  opened: 'openedAt',
  started: 'startedAt',
  engaged: 'engagedAt',
};

/**
 * A fold takes batches until they hold this many events (always one): large enough that a hot link's
 * row is rewritten once for thousands of events, small enough to bound the transaction.
 */
const FOLD_MAX_EVENTS = 20_000;
const FOLD_MAX_BATCHES = 500;

const HOUR_MS = 3_600_000;

/** What one fold did: `busy` when another fold held the organization. */
export type FoldOutcome = { busy: true } | { busy: false; batches: number; events: number };

/**
 * The fold (docs/api.md §6.4): the organization's oldest appended batches merged into everything
 * derived from the log (link rollups, distinct values, session references, hourly aggregates; the
 * campaign rollup follows its links), their webhook events recorded, and the batches deleted, all
 * in one transaction under the organization's fold lock. A fold killed at any point rolls back
 * whole; a second folder of the organization skips it; so each batch is folded exactly once.
 */
@Injectable()
export class EventFold {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly engagement: EngagementRepository,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
    private readonly webhooks: LinkWebhooks,
  ) {}

  /** Creates the log's partitions of this month and the next two when missing (idempotent). */
  ensurePartitions(): Promise<string[]> {
    return this.engagement.ensureLogPartitions(2);
  }

  /** The organizations with appended batches to fold, the longest waiting first. */
  waiting(): Promise<{ organizationId: string; oldest: Date }[]> {
    return this.engagement.organizationsToFold();
  }

  async foldOnce(organizationId: string): Promise<FoldOutcome> {
    const outcome = await this.db.transaction(async (tx): Promise<FoldOutcome & { folded?: PendingBatch[] }> => {
      if (!(await this.engagement.lockFold(tx, organizationId))) return { busy: true };
      const batches = this.bounded(await this.engagement.pendingBatches(tx, organizationId, FOLD_MAX_BATCHES));
      if (batches.length === 0) return { busy: false, batches: 0, events: 0 };
      const events = await this.engagement.eventsOfBatches(tx, organizationId, batches);
      const expected = batches.reduce((sum, b) => sum + b.eventCount, 0);
      // A batch records how many events it appended: folding fewer would lose the rest for good.
      if (events.length !== expected) throw new Error(`The log holds ${events.length} events of ${expected} appended`);
      await this.engagement.completeFold(tx, organizationId, batches, events.length);
      await this.merge(tx, organizationId, events, new Set(batches.filter((b) => b.replay).map((b) => b.batchId)));
      return { busy: false, batches: batches.length, events: events.length, folded: batches };
    });
    if (outcome.busy || outcome.batches === 0) return outcome;
    const now = Date.now();
    for (const batch of outcome.folded ?? []) observeFoldLag(now - batch.receivedAt.getTime());
    await this.links.changed(organizationId);
    return { busy: false, batches: outcome.batches, events: outcome.events };
  }

  /**
   * Folds the organization's whole log again (after a fold rule changed, or to check one): derived
   * state emptied and every batch queued as a replay, in one transaction under the fold lock; the
   * folders then rebuild it. Replays fire no webhooks. Returns how many events were queued.
   */
  async refold(organizationId: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await this.engagement.awaitFoldLock(tx, organizationId);
      await this.links.reset(tx, organizationId);
      return this.engagement.queueRefold(tx, organizationId);
    });
  }

  /** The oldest batches up to FOLD_MAX_EVENTS (always the first). */
  private bounded(batches: PendingBatch[]): PendingBatch[] {
    let events = 0;
    return batches.filter((batch, i) => (events += batch.eventCount) <= FOLD_MAX_EVENTS || i === 0);
  }

  /**
   * Merges events into their links, sessions, distinct values, hours and facets. Every phase takes its row
   * locks in key order and the phases run in one order (distinct values, session references, links,
   * hours, facets), so a fold never deadlocks with the link writes of the API.
   */
  private async merge(tx: EntityManager, organizationId: string, events: LoggedEvent[], replays: Set<string>) {
    const statsByLink = new Map<string, LinkStats>();
    const sessions = new Map<string, SessionTimes>();
    const hours = new Map<string, EventHour>();
    for (const event of events) {
      const stats = statsByLink.get(event.linkId) ?? emptyStats();
      addEvent(stats, event);
      statsByLink.set(event.linkId, stats);
      if (event.sessionId && countsAsEngagement(event)) addSessionTimes(sessions, event);
      addHour(hours, event);
    }
    const linkIds = [...statsByLink.keys()].sort();
    const distinct = linkIds.flatMap((linkId) =>
      DISTINCT_KINDS.flatMap((kind) =>
        [...(statsByLink.get(linkId) as LinkStats).distinct[kind]].sort().map((value) => ({ linkId, kind, value })),
      ),
    );
    const newDistinct = await this.engagement.insertDistinct(tx, organizationId, distinct);
    await this.engagement.mergeSessions(
      tx,
      organizationId,
      [...sessions.keys()].sort().map((key) => sessions.get(key) as SessionTimes),
    );
    const before = await this.links.merge(
      tx,
      organizationId,
      linkIds.map((linkId) => ({
        linkId,
        stats: statsByLink.get(linkId) as LinkStats,
        newDistinct: (kind: DistinctKind) => newDistinct.get(`${linkId}:${kind}`) ?? 0,
      })),
    );
    const hourRows = [...hours.keys()].sort().map((key) => hours.get(key) as EventHour);
    await this.engagement.addHours(tx, organizationId, hourRows);
    // Counted in the worker, whose CPU scales apart from the database's.
    const filing = await this.engagement.filingOf(tx, organizationId, linkIds);
    await this.engagement.addFacets(tx, organizationId, facetCountsOf(hourRows, filing));
    const replayed = new Set(events.filter((e) => replays.has(e.batchId)).map((e) => e.eventId));
    await this.webhooks.record(tx, organizationId, before, events, (eventId) => !replayed.has(eventId));
  }
}

/** A session reference's times are the earliest of each kind (docs/api.md §6.6), by the shared stage evidence. */
function addSessionTimes(sessions: Map<string, SessionTimes>, event: LoggedEvent): void {
  const key = `${event.linkId}:${event.sessionId}`;
  const at = event.occurredAt;
  const times = sessions.get(key) ?? {
    linkId: event.linkId,
    sessionId: event.sessionId as string,
    openedAt: null,
    startedAt: null,
    engagedAt: null,
    endedAt: null,
    firstSeenAt: at,
  };
  times.firstSeenAt = earlier(times.firstSeenAt, at);
  for (const stage of STAGE_EVIDENCE[event.type]) times[SESSION_TIME[stage]] = earlier(times[SESSION_TIME[stage]], at);
  if (event.type === 'session_ended') times.endedAt = earlier(times.endedAt, at);
  sessions.set(key, times);
}

/** Counts an event in its hour's aggregate (the hour of when it happened, UTC). */
function addHour(hours: Map<string, EventHour>, event: LoggedEvent): void {
  const { context } = event;
  const hour: Omit<EventHour, 'events'> = {
    linkId: event.linkId,
    hour: new Date(Math.floor(event.occurredAt.getTime() / HOUR_MS) * HOUR_MS),
    type: event.type,
    bot: event.bot,
    internal: event.internal === true,
    country: context.country,
    deviceType: context.deviceType,
    browser: context.browser,
    os: context.os,
    referrerDomain: context.referrerDomain,
    utmSource: context.utm?.source ?? null,
    utmMedium: context.utm?.medium ?? null,
    utmCampaign: context.utm?.campaign ?? null,
  };
  const key = JSON.stringify(Object.values({ ...hour, hour: hour.hour.getTime() }));
  const found = hours.get(key);
  if (found) found.events += 1;
  else hours.set(key, { ...hour, events: 1 });
}
