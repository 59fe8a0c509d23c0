import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Narrowed, Row } from '../../common/database/rows';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import { addFacetsSql, type FacetCount, type Filing } from './facets';
import type { BotReason } from './rules/bot-detection';
import {
  CAMPAIGN_COUNTERS as FIGURE_COUNTERS,
  CAMPAIGN_TIME_COLUMNS,
  CAMPAIGN_TIMES,
  type CampaignFiguresChange,
} from './rules/campaign-figures';
import type { DistinctKind, EngagementEvent, EventType } from './rules/engagement-rollup';
import type { DeviceType, EventContext } from './rules/event-context';
import type { ActivityPageQuery, ActivityRow } from '../accounts';
import type { InternalReason } from '../settings';

/** Timestamps go to PostgreSQL as ISO text: pg's own Date formatting is slow for thousands of them. */
const iso = (at: Date | null) => at?.toISOString() ?? null;

export interface NewEvent extends EngagementEvent {
  linkId: string;
  context: EventContext;
  /** Why the event is internal (docs/api.md §6.8); null for external traffic. */
  internalReason: InternalReason | null;
}

export interface SessionTimes {
  linkId: string;
  sessionId: string;
  openedAt: Date | null;
  startedAt: Date | null;
  engagedAt: Date | null;
  endedAt: Date | null;
  firstSeenAt: Date;
}

export type LinkEventRow = Narrowed<
  Pick<
    Row<'link_events'>,
    | 'event_id'
    | 'type'
    | 'occurred_at'
    | 'visitor_id'
    | 'session_id'
    | 'page_view_id'
    | 'bot'
    | 'bot_reason'
    | 'country'
    | 'device_type'
    | 'browser'
    | 'os'
    | 'referrer_domain'
    | 'utm_source'
    | 'utm_medium'
    | 'utm_campaign'
    | 'utm_term'
    | 'utm_content'
    | 'internal_reason'
  >,
  { bot_reason: BotReason | null; device_type: DeviceType | null; internal_reason: InternalReason | null }
>;

/** A link's campaign and account domain, as they were before it moved. */
export interface FiledLink extends Filing {
  linkId: string;
}

/** An appended batch the fold has not taken yet; `replay`: queued again by a refold (it fires no webhooks). */
export interface PendingBatch {
  batchId: string;
  receivedAt: Date;
  eventCount: number;
  replay: boolean;
}

/** An event as the log holds it, back in the fold. */
export type LoggedEvent = NewEvent & { batchId: string };

/** One hourly aggregate's key and how many events it gains (docs/api.md §6.4). */
export interface EventHour {
  linkId: string;
  hour: Date;
  type: string;
  bot: boolean;
  internal: boolean;
  country: string | null;
  deviceType: string | null;
  browser: string | null;
  os: string | null;
  referrerDomain: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  events: number;
}

const HOUR_KEY =
  `organization_id, custom_link_id, hour, type, bot, internal, country, device_type, browser, os, referrer_domain,
  utm_source, utm_medium, utm_campaign`.replace(/\s+/g, ' ');

/** The fold's `asOf` for organization $1 (foldedAsOf). */
const FOLDED_AS_OF = `least(statement_timestamp(), (SELECT min(received_at) FROM link_event_batches WHERE organization_id = $1))`;

/** The columns an event is read back with (the timeline, the fold). */
const LOGGED_COLUMNS = `event_id, type, occurred_at, visitor_id, session_id, page_view_id, bot, bot_reason, country, device_type, browser, os,
  referrer_domain, utm_source, utm_medium, utm_campaign, utm_term, utm_content, internal_reason`;

/** A logged event's row as the fold reads it. */
function loggedEventOf(row: LinkEventRow & Pick<Row<'link_events'>, 'custom_link_id'>): NewEvent {
  const utm = [row.utm_source, row.utm_medium, row.utm_campaign, row.utm_term, row.utm_content];
  return {
    linkId: row.custom_link_id,
    eventId: row.event_id,
    type: row.type as NewEvent['type'],
    occurredAt: row.occurred_at,
    pageViewId: row.page_view_id,
    visitorId: row.visitor_id,
    sessionId: row.session_id,
    bot: row.bot,
    botReason: row.bot_reason,
    internal: row.internal_reason !== null,
    internalReason: row.internal_reason,
    context: {
      country: row.country,
      deviceType: row.device_type,
      browser: row.browser,
      os: row.os,
      referrerDomain: row.referrer_domain,
      utm: utm.every((v) => v === null)
        ? null
        : {
            source: row.utm_source,
            medium: row.utm_medium,
            campaign: row.utm_campaign,
            term: row.utm_term,
            content: row.utm_content,
          },
    },
  };
}

/** A link's timeline filters: bots included or not, and the types wanted (all when absent). */
export interface LinkEventFilters {
  includeBots: boolean;
  includeInternal: boolean;
  types?: string[];
}

/** A link's session reference. */
export type SessionReferenceRow = Pick<
  Row<'link_sessions'>,
  'session_id' | 'opened_at' | 'started_at' | 'engaged_at' | 'ended_at'
>;

/** How many events of one type a link's log holds (eventCountsOfLinks). */
export type LinkEventTypeCount = Narrowed<Pick<Row<'link_events'>, 'custom_link_id' | 'type'>, { type: EventType }> & {
  events: number;
  bot: number;
  internal: number;
};

/** The only place that queries engagement tables; every statement is scoped by organization. */
@Injectable()
export class EngagementRepository {
  /** Organizations whose fold-lock row this process knows is committed (ensureFoldRow). */
  private readonly foldRows = new Set<string>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The logged events of these links by link and type, folded or not, with how many of them are bot
   * or internal traffic (link_events_link_idx, each link's entries once).
   */
  async eventCountsOfLinks(organizationId: string, linkIds: string[]): Promise<LinkEventTypeCount[]> {
    if (linkIds.length === 0) return [];
    return this.db.query(
      `SELECT custom_link_id, type, count(*)::int AS events, count(*) FILTER (WHERE bot)::int AS bot,
              count(*) FILTER (WHERE internal_reason IS NOT NULL)::int AS internal
         FROM link_events WHERE organization_id = $1 AND custom_link_id = ANY($2::uuid[])
        GROUP BY custom_link_id, type`,
      [organizationId, linkIds],
    );
  }

  /**
   * Appends events to the log as one batch (docs/api.md §6.4), each eventId once ever (link_event_ids;
   * callers pass each id once, sorted, so rows lock in key order), and queues the batch for the fold
   * when any was new; returns the new ids.
   */
  async appendEvents(
    tx: EntityManager,
    organizationId: string,
    batchId: string,
    events: NewEvent[],
  ): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const rows: Pick<Row<'link_events'>, 'event_id'>[] = await tx.query(
      `WITH input AS (
         SELECT * FROM unnest($3::text[], $4::uuid[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::uuid[], $10::boolean[], $11::text[],
                              $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
                              $21::text[], $22::text[])
              WITH ORDINALITY AS e(event_id, link_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, bot_reason,
                                   country, device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, utm_term,
                                   utm_content, internal_reason, ord)),
       fresh AS (
         INSERT INTO link_event_ids (organization_id, event_id, received_at)
         SELECT $1, event_id, now() FROM input ORDER BY ord
         ON CONFLICT (organization_id, event_id) DO NOTHING RETURNING event_id)
       INSERT INTO link_events (organization_id, received_at, batch_id, event_id, custom_link_id, type, occurred_at, page_view_id, visitor_id,
                                session_id, bot, bot_reason, country, device_type, browser, os, referrer_domain, utm_source, utm_medium,
                                utm_campaign, utm_term, utm_content, internal_reason)
       SELECT $1, now(), $2, e.event_id, e.link_id, e.type, e.occurred_at, e.page_view_id, e.visitor_id, e.session_id, e.bot, e.bot_reason,
              e.country, e.device_type, e.browser, e.os, e.referrer_domain, e.utm_source, e.utm_medium, e.utm_campaign, e.utm_term,
              e.utm_content, e.internal_reason
         FROM input e JOIN fresh f ON f.event_id = e.event_id
       RETURNING event_id`,
      [
        organizationId,
        batchId,
        events.map((e) => e.eventId),
        events.map((e) => e.linkId),
        events.map((e) => e.type),
        events.map((e) => e.occurredAt.toISOString()),
        events.map((e) => e.pageViewId),
        events.map((e) => e.visitorId),
        events.map((e) => e.sessionId),
        events.map((e) => e.bot),
        events.map((e) => e.botReason ?? null),
        events.map((e) => e.context.country),
        events.map((e) => e.context.deviceType),
        events.map((e) => e.context.browser),
        events.map((e) => e.context.os),
        events.map((e) => e.context.referrerDomain),
        events.map((e) => e.context.utm?.source ?? null),
        events.map((e) => e.context.utm?.medium ?? null),
        events.map((e) => e.context.utm?.campaign ?? null),
        events.map((e) => e.context.utm?.term ?? null),
        events.map((e) => e.context.utm?.content ?? null),
        events.map((e) => e.internalReason),
      ],
    );
    if (rows.length > 0)
      await tx.query(
        `INSERT INTO link_event_batches (organization_id, batch_id, received_at, event_count) VALUES ($1, $2, now(), $3)`,
        [organizationId, batchId, rows.length],
      );
    return new Set(rows.map((row) => row.event_id));
  }

  /**
   * The log's monthly partitions (UTC) from this month through `monthsAhead` later, created when
   * missing, so that appends never land in the default partition; returns the names created.
   */
  async ensureLogPartitions(monthsAhead: number): Promise<string[]> {
    const months: { name: string; start: string; end: string }[] = await this.db.query(
      `SELECT 'link_events_' || to_char(m, 'YYYYMM') AS name, (m AT TIME ZONE 'UTC')::text AS start,
              ((m + interval '1 month') AT TIME ZONE 'UTC')::text AS end
         FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'),
                              date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => $1), interval '1 month') AS m
        WHERE to_regclass('link_events_' || to_char(m, 'YYYYMM')) IS NULL`,
      [monthsAhead],
    );
    for (const month of months)
      await this.db.query(
        `CREATE TABLE IF NOT EXISTS ${month.name} PARTITION OF link_events FOR VALUES FROM ('${month.start}') TO ('${month.end}')`,
      );
    return months.map((month) => month.name);
  }

  /** The organizations with batches to fold, the longest waiting first (a read across tenants; it locks nothing). */
  async organizationsToFold(): Promise<{ organizationId: string; oldest: Date }[]> {
    const rows: { organization_id: string; oldest: Date }[] = await this.db.query(
      `SELECT organization_id, min(received_at) AS oldest FROM link_event_batches GROUP BY organization_id ORDER BY 2`,
    );
    return rows.map((row) => ({ organizationId: row.organization_id, oldest: row.oldest }));
  }

  /**
   * Takes the organization's fold lock for `tx` (its engagement_folds row): false when another fold
   * holds it. One organization's row, never a sweep across tenants.
   */
  async lockFold(tx: EntityManager, organizationId: string): Promise<boolean> {
    await this.ensureFoldRow(organizationId);
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM engagement_folds WHERE organization_id = $1 FOR UPDATE SKIP LOCKED`,
      [organizationId],
    );
    return rows.length === 1;
  }

  /** Waits for the organization's fold lock (a refold must not be skipped). */
  async awaitFoldLock(tx: EntityManager, organizationId: string): Promise<void> {
    await this.ensureFoldRow(organizationId);
    await tx.query(`SELECT 1 FROM engagement_folds WHERE organization_id = $1 FOR UPDATE`, [organizationId]);
  }

  /**
   * The organization's fold-lock row, committed on its own before any fold takes it: inserted inside
   * the fold's transaction, the other folders of a new organization would wait on the uncommitted
   * key for that whole fold (and time out) instead of skipping it.
   */
  private async ensureFoldRow(organizationId: string): Promise<void> {
    // Once this process saw the row, it stays (only the organization's deletion removes it): a fold
    // then pays no extra round trip.
    if (this.foldRows.has(organizationId)) return;
    await this.db.query(
      `INSERT INTO engagement_folds (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING`,
      [organizationId],
    );
    this.foldRows.add(organizationId);
  }

  /**
   * Empties what the fold derives of the organization's log (the links' rollups are the owner's to
   * empty) and queues every logged batch again as a replay; returns how many events wait.
   */
  async queueRefold(tx: EntityManager, organizationId: string): Promise<number> {
    for (const table of [
      'link_distinct_values',
      'link_sessions',
      'link_event_hours',
      'event_facet_hours',
      'event_facet_days',
      'link_event_batches',
    ])
      await tx.query(`DELETE FROM ${table} WHERE organization_id = $1`, [organizationId]);
    await this.countAggregatesWrite(tx, organizationId);
    const [row]: { events: number }[] = await tx.query(
      `WITH queued AS (
         INSERT INTO link_event_batches (organization_id, batch_id, received_at, event_count, replay)
         SELECT organization_id, batch_id, min(received_at), count(*), true FROM link_events WHERE organization_id = $1
          GROUP BY organization_id, batch_id RETURNING event_count)
       SELECT coalesce(sum(event_count), 0)::int AS events FROM queued`,
      [organizationId],
    );
    return row.events;
  }

  /**
   * Deletes the organization's logged events that happened before `cutoff` (retention, docs/api.md
   * §6.10), in the caller's transaction under the fold lock; returns how many. Their link_event_ids
   * stay: an expired eventId sent again is still a duplicate, never counted anew.
   */
  async deleteEventsBefore(tx: EntityManager, organizationId: string, cutoff: Date): Promise<number> {
    const [, deleted]: [unknown, number] = await tx.query(
      `DELETE FROM link_events WHERE organization_id = $1 AND occurred_at < $2`,
      [organizationId, cutoff.toISOString()],
    );
    return deleted;
  }

  /** Deletes these sessions' references (link_sessions_session_idx); returns how many. */
  async deleteSessionReferences(tx: EntityManager, organizationId: string, sessionIds: string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const [, deleted]: [unknown, number] = await tx.query(
      `DELETE FROM link_sessions WHERE organization_id = $1 AND session_id = ANY($2::uuid[])`,
      [organizationId, sessionIds],
    );
    return deleted;
  }

  /**
   * Deletes the organization's rows of the engagement tables that have no foreign key to
   * organizations (migrations EngagementRowsCascade, EventLog, AnalyticsFacets), in the transaction
   * that deletes the organization: one statement, each table by its organization-leading key.
   */
  async deleteOrganizationRows(tx: EntityManager, organizationId: string): Promise<void> {
    await tx.query(
      `WITH events AS (DELETE FROM link_events WHERE organization_id = $1),
            distinct_values AS (DELETE FROM link_distinct_values WHERE organization_id = $1),
            sessions AS (DELETE FROM link_sessions WHERE organization_id = $1),
            event_ids AS (DELETE FROM link_event_ids WHERE organization_id = $1),
            batches AS (DELETE FROM link_event_batches WHERE organization_id = $1),
            folds AS (DELETE FROM engagement_folds WHERE organization_id = $1),
            hours AS (DELETE FROM link_event_hours WHERE organization_id = $1),
            facet_hours AS (DELETE FROM event_facet_hours WHERE organization_id = $1),
            facet_days AS (DELETE FROM event_facet_days WHERE organization_id = $1),
            facet_versions AS (DELETE FROM event_facet_versions WHERE organization_id = $1)
       SELECT 1`,
      [organizationId],
    );
  }

  /** A page of the sessions referenced before `cutoff` (first seen), by id after `after`. */
  async sessionsReferencedBefore(
    organizationId: string,
    cutoff: Date,
    after: string | null,
    limit: number,
  ): Promise<string[]> {
    const rows: Pick<Row<'link_sessions'>, 'session_id'>[] = await this.db.query(
      `SELECT DISTINCT session_id FROM link_sessions
        WHERE organization_id = $1 AND first_seen_at < $2 AND ($3::uuid IS NULL OR session_id > $3::uuid)
        ORDER BY session_id LIMIT $4`,
      [organizationId, cutoff.toISOString(), after, limit],
    );
    return rows.map((row) => row.session_id);
  }

  /**
   * The log's monthly partitions that end on or before `before` and before this month (UTC): the
   * ones a retention run may drop once they hold no row. Never the default partition.
   */
  async partitionsEndingBy(before: Date): Promise<string[]> {
    const rows: { name: string }[] = await this.db.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'link_events'::regclass AND c.relname ~ '^link_events_[0-9]{6}$'
          AND to_date(substr(c.relname, 13), 'YYYYMM') + interval '1 month'
              <= least($1::timestamptz AT TIME ZONE 'UTC', date_trunc('month', now() AT TIME ZONE 'UTC'))
        ORDER BY c.relname`,
      [before.toISOString()],
    );
    return rows.map((row) => row.name);
  }

  /**
   * Drops a past monthly partition when it holds no row, of any organization (events are appended
   * with received_at = now(), so a past month never fills again); true when dropped. The name comes
   * from partitionsEndingBy.
   */
  async dropPartitionIfEmpty(name: string): Promise<boolean> {
    if (!/^link_events_[0-9]{6}$/.test(name)) throw new Error(`Not a monthly partition of link_events: ${name}`);
    return this.db.transaction(async (tx) => {
      await tx.query(`LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE`);
      const [row]: { empty: boolean }[] = await tx.query(`SELECT NOT EXISTS (SELECT 1 FROM ${name}) AS empty`);
      if (!row.empty) return false;
      await tx.query(`DROP TABLE ${name}`);
      return true;
    });
  }

  /** The organization's oldest pending batches, in arrival order (link_event_batches_pending_idx). */
  async pendingBatches(tx: EntityManager, organizationId: string, limit: number): Promise<PendingBatch[]> {
    const rows: Pick<Row<'link_event_batches'>, 'batch_id' | 'received_at' | 'event_count' | 'replay'>[] =
      await tx.query(
        `SELECT batch_id, received_at, event_count, replay FROM link_event_batches
        WHERE organization_id = $1 ORDER BY received_at, batch_id LIMIT $2`,
        [organizationId, limit],
      );
    return rows.map((row) => ({
      batchId: row.batch_id,
      receivedAt: row.received_at,
      eventCount: row.event_count,
      replay: row.replay,
    }));
  }

  /**
   * The events of these pending batches, in arrival order. The earliest receipt among them (read
   * here: a Date keeps milliseconds, PostgreSQL microseconds) bounds the partitions scanned; a
   * batch's events share its receipt time, except a carried batch's (an hour of today's events).
   */
  async eventsOfBatches(tx: EntityManager, organizationId: string, batches: PendingBatch[]): Promise<LoggedEvent[]> {
    const rows: (LinkEventRow & Pick<Row<'link_events'>, 'custom_link_id' | 'batch_id'>)[] = await tx.query(
      `SELECT batch_id, custom_link_id, ${LOGGED_COLUMNS} FROM link_events
        WHERE organization_id = $1 AND batch_id = ANY($2::uuid[])
          AND received_at >= (SELECT min(received_at) FROM link_event_batches WHERE organization_id = $1 AND batch_id = ANY($2::uuid[]))
        ORDER BY received_at, batch_id, occurred_at, event_id`,
      [organizationId, batches.map((b) => b.batchId)],
    );
    return rows.map((row) => ({ batchId: row.batch_id, ...loggedEventOf(row) }));
  }

  /** Marks batches folded (in the fold's transaction) and counts them on the organization's fold row. */
  async completeFold(
    tx: EntityManager,
    organizationId: string,
    batches: PendingBatch[],
    events: number,
  ): Promise<void> {
    await tx.query(`DELETE FROM link_event_batches WHERE organization_id = $1 AND batch_id = ANY($2::uuid[])`, [
      organizationId,
      batches.map((b) => b.batchId),
    ]);
    await tx.query(
      `UPDATE engagement_folds SET folded_events = folded_events + $2, folded_at = now() WHERE organization_id = $1`,
      [organizationId, events],
    );
  }

  /** Adds counts to the hourly aggregates, in the given order (callers sort by key). */
  async addHours(tx: EntityManager, organizationId: string, hours: EventHour[]): Promise<void> {
    if (hours.length === 0) return;
    const column = <K extends keyof EventHour>(key: K) => hours.map((h) => h[key]);
    const columns = HOUR_KEY.split(', ').slice(1);
    await tx.query(
      `INSERT INTO link_event_hours AS h (${HOUR_KEY}, events)
       SELECT $1, ${columns.map((c) => `v.${c}`).join(', ')}, v.events
         FROM unnest($2::uuid[], $3::timestamptz[], $4::text[], $5::boolean[], $6::boolean[], $7::text[], $8::text[], $9::text[],
                     $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::int[])
              WITH ORDINALITY AS v(${columns.join(', ')}, events, ord)
        ORDER BY v.ord
       ON CONFLICT ON CONSTRAINT link_event_hours_key DO UPDATE SET events = h.events + EXCLUDED.events`,
      [
        organizationId,
        column('linkId'),
        hours.map((h) => h.hour.toISOString()),
        column('type'),
        column('bot'),
        column('internal'),
        column('country'),
        column('deviceType'),
        column('browser'),
        column('os'),
        column('referrerDomain'),
        column('utmSource'),
        column('utmMedium'),
        column('utmCampaign'),
        column('events'),
      ],
    );
  }

  /**
   * Where these links' events are filed now (custom-links' read model link_rollups), read in `tx`
   * after the fold locked their rows: a link moving files its events after this fold commits.
   */
  async filingOf(tx: EntityManager, organizationId: string, linkIds: string[]): Promise<Map<string, Filing>> {
    const rows: { link_id: string; campaign_id: string | null; account_domain: string | null }[] = await tx.query(
      `SELECT link_id, campaign_id, account_domain FROM link_rollups WHERE organization_id = $1 AND link_id = ANY($2::uuid[])`,
      [organizationId, linkIds],
    );
    return new Map(
      rows.map((row) => [row.link_id, { campaignId: row.campaign_id, accountDomain: row.account_domain }]),
    );
  }

  /** Adds counts to the analytics facets, hourly and daily (one row per key). */
  async addFacets(tx: EntityManager, organizationId: string, counts: FacetCount[]): Promise<void> {
    if (counts.length === 0) return;
    await tx.query(
      addFacetsSql(`facets AS (
         SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::boolean[], $7::boolean[], $8::int[])
                    AS f(facet, hour, value, type, bot, internal, events))`),
      [
        organizationId,
        counts.map((c) => c.facet),
        counts.map((c) => c.hour.toISOString()),
        counts.map((c) => c.value),
        counts.map((c) => c.type),
        counts.map((c) => c.bot),
        counts.map((c) => c.internal),
        counts.map((c) => c.events),
      ],
    );
    await this.countAggregatesWrite(tx, organizationId);
  }

  /**
   * Locks these campaigns' figures (campaign_engagement) in campaign order for the rest of `tx`.
   * Every writer of links locks their rows first, then their campaigns' figures in campaign order
   * (addCampaignFigures sorts its rows); a writer of several campaigns' links takes them here before
   * its write, so it holds them in that order from the start. A campaign without figures yet has no row to lock.
   */
  async lockCampaignFigures(tx: EntityManager, organizationId: string, campaignIds: string[]): Promise<void> {
    if (campaignIds.length < 2) return;
    await tx.query(
      `SELECT 1 FROM campaign_engagement WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[])
        ORDER BY campaign_id FOR UPDATE`,
      [organizationId, campaignIds],
    );
  }

  /**
   * Adds what link writes did to their campaigns' figures (campaignFigureChanges), in campaign order:
   * counters add, times take the earliest or latest. Every value is a parameter, so the upsert calls
   * no function (Citus: docs/scaling.md).
   */
  async addCampaignFigures(tx: EntityManager, organizationId: string, changes: CampaignFiguresChange[]): Promise<void> {
    if (changes.length === 0) return;
    const columns = [...FIGURE_COUNTERS, ...CAMPAIGN_TIME_COLUMNS];
    const types = [...FIGURE_COUNTERS.map(() => 'bigint'), ...CAMPAIGN_TIME_COLUMNS.map(() => 'timestamptz')];
    await tx.query(
      `INSERT INTO campaign_engagement AS ce (organization_id, campaign_id, ${columns.join(', ')})
       SELECT $1, d.* FROM unnest($2::uuid[], ${types.map((type, i) => `$${i + 3}::${type}[]`).join(', ')})
                        AS d(campaign_id, ${columns.join(', ')})
        ORDER BY d.campaign_id
       ON CONFLICT (organization_id, campaign_id) DO UPDATE SET
         ${FIGURE_COUNTERS.map((c) => `${c} = ce.${c} + EXCLUDED.${c}`).join(', ')},
         ${CAMPAIGN_TIME_COLUMNS.map((c) => `${c} = ${CAMPAIGN_TIMES[c] === 'earliest' ? 'LEAST' : 'GREATEST'}(ce.${c}, EXCLUDED.${c})`).join(', ')}`,
      [
        organizationId,
        changes.map((change) => change.campaignId),
        ...FIGURE_COUNTERS.map((c) => changes.map((change) => change.counters[c])),
        ...CAMPAIGN_TIME_COLUMNS.map((c) => changes.map((change) => iso(change.times[c]))),
      ],
    );
  }

  /**
   * Recounts these campaigns' times from the links filed in them now (custom-links' read model
   * link_rollups, custom_links_campaign_idx), after addCampaignFigures locked their rows: a link that
   * held one of them left, or its time went back.
   */
  async recountCampaignTimes(tx: EntityManager, organizationId: string, campaignIds: string[]): Promise<void> {
    if (campaignIds.length === 0) return;
    await tx.query(
      `UPDATE campaign_engagement ce SET ${CAMPAIGN_TIME_COLUMNS.map((c) => `${c} = t.${c}`).join(', ')}
         FROM (SELECT r.campaign_id, ${CAMPAIGN_TIME_COLUMNS.map((c) => `${CAMPAIGN_TIMES[c] === 'earliest' ? 'min' : 'max'}(l.${c}) AS ${c}`).join(', ')}
                 FROM unnest($2::uuid[]) AS r(campaign_id)
                 LEFT JOIN link_rollups l ON l.organization_id = $1 AND l.campaign_id = r.campaign_id
                GROUP BY r.campaign_id) t
        WHERE ce.organization_id = $1 AND ce.campaign_id = t.campaign_id`,
      [organizationId, campaignIds],
    );
  }

  /**
   * Files the events of links that moved (their campaign or account domain changed in `tx`, which
   * holds their rows) under the values they have now: what each link's hourly aggregates hold moves
   * from the facet value it had to the one it has.
   */
  async refileLinks(tx: EntityManager, organizationId: string, moved: FiledLink[]): Promise<void> {
    if (moved.length === 0) return;
    await tx.query(
      addFacetsSql(`m AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[]) AS m(link_id, campaign, account)),
       facets AS (
         SELECT c.facet, h.hour, c.value, h.type, h.bot, h.internal, sum(c.sign * h.events)::int AS events
           FROM m
           JOIN link_rollups d ON d.organization_id = $1 AND d.link_id = m.link_id
           JOIN link_event_hours h ON h.organization_id = $1 AND h.custom_link_id = m.link_id
          CROSS JOIN LATERAL (VALUES ('campaign', m.campaign, -1), ('campaign', d.campaign_id::text, 1),
                                     ('account_domain', m.account, -1), ('account_domain', d.account_domain, 1)) AS c(facet, value, sign)
          WHERE CASE c.facet WHEN 'campaign' THEN m.campaign IS DISTINCT FROM d.campaign_id::text
                             ELSE m.account IS DISTINCT FROM d.account_domain END
          GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(c.sign * h.events) <> 0)`),
      [
        organizationId,
        moved.map((link) => link.linkId),
        moved.map((link) => link.campaignId?.toLowerCase() ?? null),
        moved.map((link) => link.accountDomain),
      ],
    );
    await this.countAggregatesWrite(tx, organizationId);
  }

  /** Files a campaign's events as unfiled (its links were all unfiled in `tx`, which holds their rows). */
  async unfileCampaign(tx: EntityManager, organizationId: string, campaignId: string): Promise<void> {
    await tx.query(
      addFacetsSql(`facets AS (
         SELECT 'campaign' AS facet, hour, c.value, type, bot, internal, c.sign * events AS events
           FROM event_facet_hours CROSS JOIN (VALUES ($2::text, -1), (NULL, 1)) AS c(value, sign)
          WHERE organization_id = $1 AND facet = 'campaign' AND event_facet_hours.value = $2::text AND events <> 0)`),
      [organizationId, campaignId.toLowerCase()],
    );
    await this.countAggregatesWrite(tx, organizationId);
  }

  /**
   * The instant before which every accepted event is folded: the oldest pending batch's receipt, or
   * this statement's time when none waits. A batch is received (now()) before its request is
   * answered, so an event answered before the instant was folded by then.
   */
  async foldedAsOf(organizationId: string, tx?: EntityManager): Promise<Date> {
    const [row]: { as_of: Date }[] = await (tx ?? this.db).query(`SELECT ${FOLDED_AS_OF} AS as_of`, [organizationId]);
    return row.as_of;
  }

  /** `asOf` and the version of the organization's aggregates (0 before their first write), read together. */
  async foldState(organizationId: string): Promise<{ asOf: Date; version: string }> {
    const [row]: { as_of: Date; version: string }[] = await this.db.query(
      `SELECT ${FOLDED_AS_OF} AS as_of,
              coalesce((SELECT version FROM event_facet_versions WHERE organization_id = $1), 0)::text AS version`,
      [organizationId],
    );
    return { asOf: row.as_of, version: row.version };
  }

  /**
   * Counts a write of the organization's aggregates, last in the writing transaction (after its
   * aggregate rows: every writer locks in that order).
   */
  async countAggregatesWrite(tx: EntityManager, organizationId: string): Promise<void> {
    await tx.query(
      `INSERT INTO event_facet_versions AS v (organization_id, version) VALUES ($1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET version = v.version + 1`,
      [organizationId],
    );
  }

  /** Records distinct values, in the given order (callers sort by key); returns how many were new per link and kind. */
  async insertDistinct(
    tx: EntityManager,
    organizationId: string,
    values: { linkId: string; kind: DistinctKind; value: string }[],
  ): Promise<Map<string, number>> {
    if (values.length === 0) return new Map();
    const rows: Pick<Row<'link_distinct_values'>, 'custom_link_id' | 'kind'>[] = await tx.query(
      `INSERT INTO link_distinct_values (organization_id, custom_link_id, kind, value)
       SELECT $1, v.link_id, v.kind, v.value FROM unnest($2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS v(link_id, kind, value, ord) ORDER BY v.ord
       ON CONFLICT DO NOTHING RETURNING custom_link_id, kind`,
      [organizationId, values.map((v) => v.linkId), values.map((v) => v.kind), values.map((v) => v.value)],
    );
    const counts = new Map<string, number>();
    for (const row of rows)
      counts.set(`${row.custom_link_id}:${row.kind}`, (counts.get(`${row.custom_link_id}:${row.kind}`) ?? 0) + 1);
    return counts;
  }

  /** Session references, in the given order (callers sort by key): the earliest time of each kind per (link, session). */
  async mergeSessions(tx: EntityManager, organizationId: string, sessions: SessionTimes[]): Promise<void> {
    if (sessions.length === 0) return;
    await tx.query(
      `INSERT INTO link_sessions (organization_id, custom_link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at)
       SELECT $1, s.link_id, s.session_id, s.opened_at, s.started_at, s.engaged_at, s.ended_at, s.first_seen_at
         FROM unnest($2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
              WITH ORDINALITY AS s(link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at, ord)
        ORDER BY s.ord
       ON CONFLICT (organization_id, custom_link_id, session_id) DO UPDATE SET
         opened_at = LEAST(link_sessions.opened_at, EXCLUDED.opened_at), started_at = LEAST(link_sessions.started_at, EXCLUDED.started_at),
         engaged_at = LEAST(link_sessions.engaged_at, EXCLUDED.engaged_at), ended_at = LEAST(link_sessions.ended_at, EXCLUDED.ended_at),
         first_seen_at = LEAST(link_sessions.first_seen_at, EXCLUDED.first_seen_at)`,
      [
        organizationId,
        sessions.map((s) => s.linkId),
        sessions.map((s) => s.sessionId),
        sessions.map((s) => iso(s.openedAt)),
        sessions.map((s) => iso(s.startedAt)),
        sessions.map((s) => iso(s.engagedAt)),
        sessions.map((s) => iso(s.endedAt)),
        sessions.map((s) => s.firstSeenAt.toISOString()),
      ],
    );
  }

  /**
   * Campaign engagement (docs/api.md §2.10): the campaign's rollup row, which the links' writers keep
   * in step with its links (migration CampaignEngagementRollup); zeros before its first link; null when
   * the campaign does not exist in the organization (campaigns' read model campaign_ids).
   */
  async campaignEngagement(organizationId: string, campaignId: string): Promise<CampaignEngagementRow | null> {
    const rows: CampaignEngagementRow[] = await this.db.query(
      `SELECT ${CAMPAIGN_COUNTERS.map(([field, column]) => `coalesce(ce.${column}, 0)::int AS ${field}`).join(', ')},
              ce.first_opened_at, ce.last_opened_at, ce.last_activity_at
         FROM campaign_ids c
         LEFT JOIN campaign_engagement ce ON ce.organization_id = c.organization_id AND ce.campaign_id = c.campaign_id
        WHERE c.organization_id = $1 AND c.campaign_id = $2`,
      [organizationId, campaignId],
    );
    return rows[0] ?? null;
  }

  /**
   * The funnel over the links created in a window, in one statement through the owners' read models:
   * the links' rollups (link_rollups), and the visible sessions (visible_sessions) that came through
   * one of them or that tracking tied to one (link_sessions), with their person's intent (person_intents).
   */
  async funnel(organizationId: string, window: LinkWindow): Promise<FunnelRow> {
    const [row]: FunnelRow[] = await this.db.query(
      `WITH links AS (
         SELECT * FROM link_rollups
          WHERE organization_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
            AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz) AND ($4::uuid IS NULL OR campaign_id = $4::uuid)),
       tied AS (SELECT ls.session_id FROM link_sessions ls WHERE ls.organization_id = $1 AND ls.custom_link_id IN (SELECT link_id FROM links)),
       linked AS (
         SELECT count(*)::int AS sessions,
                count(*) FILTER (WHERE s.effective_qualification_status = 'qualified')::int AS qualified,
                count(*) FILTER (WHERE s.booked_status = 'booked')::int AS booked,
                count(*) FILTER (WHERE pi.overall_intent = 'high')::int AS high_intent
           FROM visible_sessions s
           LEFT JOIN person_intents pi ON pi.organization_id = s.organization_id AND pi.person_id = s.person_id
          WHERE s.organization_id = $1
            AND (s.custom_link_id IN (SELECT link_id FROM links) OR s.session_id IN (SELECT session_id FROM tied)))
       SELECT count(*)::int AS generated,
              count(*) FILTER (WHERE active)::int AS active,
              count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
              count(*) FILTER (WHERE stage IN ('started', 'engaged'))::int AS started,
              count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
              count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
              count(*) FILTER (WHERE first_meeting_clicked_at IS NOT NULL)::int AS meeting_clicked,
              count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
              count(*) FILTER (WHERE bot_open_count > 0 AND NOT open_observed)::int AS bot_scanned_only,
              (SELECT sessions FROM linked), (SELECT qualified FROM linked),
              (SELECT booked FROM linked), (SELECT high_intent FROM linked)
         FROM links`,
      [organizationId, window.from ?? null, window.to ?? null, window.campaignId ?? null],
    );
    return row;
  }

  /** A link's session references, most recent first (link_sessions_list_idx). */
  async sessionsOfLink(
    organizationId: string,
    linkId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: SessionReferenceRow[]; total: number }> {
    const rows: SessionReferenceRow[] = await this.db.query(
      `SELECT ls.session_id, ls.opened_at, ls.started_at, ls.engaged_at, ls.ended_at
         FROM link_sessions ls WHERE ls.organization_id = $1 AND ls.custom_link_id = $2
        ORDER BY ls.first_seen_at DESC, ls.session_id DESC LIMIT $3 OFFSET $4`,
      [organizationId, linkId, limit, offset],
    );
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM link_sessions WHERE organization_id = $1 AND custom_link_id = $2`,
      [organizationId, linkId],
    );
    return { rows, total: Number(row.total) };
  }

  /** A link's events, newest first (link_events_link_idx, scanned backwards), and how many match. */
  async eventsOfLink(
    organizationId: string,
    linkId: string,
    filters: LinkEventFilters,
    window: PageWindow,
  ): Promise<{ rows: (LinkEventRow & { keyset: Keyset })[]; total: number }> {
    const where = `organization_id = $1 AND custom_link_id = $2 AND ($3::boolean OR NOT bot) AND ($4::text[] IS NULL OR type = ANY($4::text[]))
                   AND ($5::boolean OR internal_reason IS NULL)`;
    const params = [organizationId, linkId, filters.includeBots, filters.types ?? null, filters.includeInternal];
    const pageParams: unknown[] = [...params, window.limit, window.skip];
    const after =
      window.after === null
        ? ''
        : `AND ${EVENTS_NEWEST_FIRST.after(window.after, (value) => `$${pageParams.push(value)}`)}`;
    const [rows, [count]] = await Promise.all([
      this.db.query<(LinkEventRow & { keyset: Keyset })[]>(
        `SELECT ${LOGGED_COLUMNS}, ${EVENTS_NEWEST_FIRST.select()}
           FROM link_events WHERE ${where} ${after}
          ORDER BY ${EVENTS_NEWEST_FIRST.orderBy()} LIMIT $6 OFFSET $7`,
        pageParams,
      ),
      this.db.query<{ total: string }[]>(`SELECT count(*) AS total FROM link_events WHERE ${where}`, params),
    ]);
    return { rows, total: Number(count.total) };
  }

  /**
   * The first `limit` human, external events of the links of an account domain, newest first
   * (occurredAt, then eventId, descending), after `bound` (docs/api.md §4.2, an account's activity).
   * The links come from custom-links' read model link_rollups (custom_links_account_idx); each link's
   * events from link_events_link_idx scanned backwards, at most `limit` of them; the page's sessions'
   * people from sessions' read model visible_sessions (its primary key). Bots and internal traffic are
   * filtered on the way, as the link's timeline filters them (§6.3).
   */
  async accountActivityPage(
    organizationId: string,
    { domain, bound, limit }: ActivityPageQuery,
  ): Promise<ActivityRow[]> {
    const params: unknown[] = [organizationId, domain, limit];
    const after =
      bound === null ? '' : `AND ${EVENTS_NEWEST_FIRST.afterBound(bound, (value) => `$${params.push(value)}`)}`;
    // The link's events unqualified (EVENTS_NEWEST_FIRST's columns): the innermost FROM names them.
    return this.db.query(
      `WITH page AS (
         SELECT e.* FROM link_rollups l
          CROSS JOIN LATERAL (
            SELECT organization_id, event_id, type, occurred_at, session_id, custom_link_id FROM link_events
             WHERE organization_id = $1 AND custom_link_id = l.link_id AND NOT bot AND internal_reason IS NULL
               ${after}
             ORDER BY ${EVENTS_NEWEST_FIRST.orderBy()} LIMIT $3) e
          WHERE l.organization_id = $1 AND l.account_domain = $2
          ORDER BY ${EVENTS_NEWEST_FIRST.orderBy('e.')} LIMIT $3)
       SELECT page.occurred_at, page.session_id, vs.person_id, page.custom_link_id, page.event_id, page.type,
              page.occurred_at::text AS at, (extract(epoch FROM page.occurred_at) * 1000000)::int8 AS micros, page.event_id AS key
         FROM page LEFT JOIN visible_sessions vs ON vs.organization_id = page.organization_id AND vs.session_id = page.session_id
        ORDER BY ${EVENTS_NEWEST_FIRST.orderBy('page.')}`,
      params,
    );
  }

  /**
   * Erasure (docs/api.md §18.2): the events of these links, and the events of these sessions on any
   * link, lose their visitor and session ids (link_events_link_idx, link_events_session_idx); the
   * distinct visitors and sessions the fold kept of them go too. Returns how many events changed.
   */
  async forgetVisitors(
    tx: EntityManager,
    organizationId: string,
    linkIds: string[],
    sessionIds: string[],
  ): Promise<number> {
    const [, events]: [unknown, number] = await tx.query(
      `UPDATE link_events SET visitor_id = NULL, session_id = NULL
        WHERE organization_id = $1 AND (custom_link_id = ANY($2::uuid[]) OR session_id = ANY($3::uuid[]))
          AND (visitor_id IS NOT NULL OR session_id IS NOT NULL)`,
      [organizationId, linkIds, sessionIds],
    );
    // Before the sessions' references go: they name the other links that counted those sessions.
    await tx.query(
      `DELETE FROM link_distinct_values
        WHERE organization_id = $1 AND kind = ANY($4::text[])
          AND (custom_link_id = ANY($2::uuid[])
               OR (kind <> 'visitor' AND value = ANY($3::text[]) AND custom_link_id IN (
                     SELECT custom_link_id FROM link_sessions WHERE organization_id = $1 AND session_id = ANY($3::uuid[]))))`,
      [organizationId, linkIds, sessionIds, PERSONAL_DISTINCT_KINDS],
    );
    return events;
  }
}

/** The distinct values that identify a visitor or a session (the page view kinds do not). */
const PERSONAL_DISTINCT_KINDS: readonly DistinctKind[] = ['visitor', 'session', 'started_session', 'engaged_session'];

/** Link counts of a funnel or campaign (docs/api.md §2.10, §6.7). */
export interface LinkFunnelCounts {
  generated: number;
  active: number;
  opened: number;
  started: number;
  engaged: number;
  lead_submitted: number;
  meeting_clicked: number;
  meeting_booked: number;
  bot_scanned_only: number;
}

/** The links created in a window (bounds optional, both inclusive), optionally of one campaign. */
export interface LinkWindow {
  from?: Date;
  to?: Date;
  campaignId?: string;
}

/** The funnel (docs/api.md §6.7): its links' counts and its sessions' (`high_intent`: of a high-intent person). */
export type FunnelRow = LinkFunnelCounts & { sessions: number; qualified: number; booked: number; high_intent: number };

/** The campaign's counters (CAMPAIGN_COUNTERS, each an int under the funnel's name) and its times. */
export type CampaignEngagementRow = LinkFunnelCounts & {
  page_views: number;
  loads: number;
  persistent_visitors: number;
  ephemeral_page_views: number;
  sessions: number;
  started_sessions: number;
  engaged_sessions: number;
} & Pick<Row<'campaign_engagement'>, 'first_opened_at' | 'last_opened_at' | 'last_activity_at'>;

/** CampaignEngagementRow fields and their campaign_engagement columns. */
const CAMPAIGN_COUNTERS: [keyof CampaignEngagementRow, keyof Row<'campaign_engagement'>][] = [
  ['generated', 'links'],
  ['active', 'active_links'],
  ['opened', 'opened'],
  ['started', 'started'],
  ['engaged', 'engaged'],
  ['lead_submitted', 'lead_submitted'],
  ['meeting_clicked', 'meeting_clicked'],
  ['meeting_booked', 'meeting_booked'],
  ['bot_scanned_only', 'bot_scanned_only'],
  ['page_views', 'page_views'],
  ['loads', 'loads'],
  ['persistent_visitors', 'persistent_visitors'],
  ['ephemeral_page_views', 'ephemeral_page_views'],
  ['sessions', 'sessions'],
  ['started_sessions', 'started_sessions'],
  ['engaged_sessions', 'engaged_sessions'],
];

const EVENTS_NEWEST_FIRST = new SortKey([
  { sql: 'occurred_at', type: 'timestamptz', descending: true },
  { sql: 'event_id', type: 'text', descending: true },
]);
