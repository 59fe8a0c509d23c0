import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlConditions } from '../../common/database/sql-conditions';
import type { Facet } from './facets';
import type { AnalyticsGrouping, AnalyticsInterval, AnalyticsMetric } from './rules/analytics';

/**
 * Where figures are counted (docs/api.md §6.9): the log itself, the fold's hourly aggregates per
 * link and context, or one facet of them (per hour, and per UTC day inside the range).
 */
export type AnalyticsSource = { kind: 'log' } | { kind: 'hours' } | { kind: 'facets'; facet: Facet };

/** The filters of a question, each optional (absent: any value). */
export interface AnalyticsFilters {
  campaignIds?: string[];
  linkIds?: string[];
  countries?: string[];
  deviceTypes?: string[];
  utmSources?: string[];
  utmMediums?: string[];
  utmCampaigns?: string[];
  referrerDomains?: string[];
  accountDomains?: string[];
  includeBots: boolean;
  includeInternal: boolean;
}

/** How rows are keyed: a time bucket (hours count from `hourStart`, the first bucket) or a dimension. */
export type AnalyticsKey =
  | { groupBy: 'time'; interval: AnalyticsInterval; timezone: string; hourStart: Date }
  | { groupBy: Exclude<AnalyticsGrouping, 'time'> };

export interface AnalyticsStatement {
  source: AnalyticsSource;
  metrics: AnalyticsMetric[];
  filters: AnalyticsFilters;
  from: Date;
  to: Date;
}

/** A row of figures: the key (text, or a bucket's start) and one bigint per metric. */
export type FiguresRow = { key: string | Date | null } & Record<AnalyticsMetric, string>;

/** A bucket of a time series: its start and the zone's offset there. */
export interface Bucket {
  start: Date;
  offsetSeconds: number;
}

/** Each source's columns, under the alias `e`: when, whether internal, how many events a row is. */
const SOURCES: Record<AnalyticsSource['kind'], { at: string; internal: string; events: string }> = {
  log: { at: 'e.occurred_at', internal: '(e.internal_reason IS NOT NULL)', events: '1' },
  // Rows are whole UTC hours of events (the fold's link_event_hours).
  hours: { at: 'e.hour', internal: 'e.internal', events: 'e.events' },
  // Rows are whole UTC hours or days of one facet's value.
  facets: { at: 'e.at', internal: 'e.internal', events: 'e.events' },
};

/** Each metric that counts events: their type, and which of them count (the question's, bots', internal ones). */
const COUNTED: Partial<Record<AnalyticsMetric, { type: string; which: 'asked' | 'bot' | 'internal' }>> = {
  opens: { type: 'open', which: 'asked' },
  loads: { type: 'page_view', which: 'asked' },
  leads: { type: 'lead_submitted', which: 'asked' },
  meetingsClicked: { type: 'meeting_clicked', which: 'asked' },
  meetingsBooked: { type: 'meeting_booked', which: 'asked' },
  botOpens: { type: 'open', which: 'bot' },
  internalOpens: { type: 'open', which: 'internal' },
};

const DAY_MS = 86_400_000;

/** The dimension columns of both sources (the log and the aggregates name them alike). */
const DIMENSIONS: Record<Exclude<AnalyticsGrouping, 'time'>, string> = {
  country: 'e.country',
  device_type: 'e.device_type',
  browser: 'e.browser',
  os: 'e.os',
  referrer_domain: 'e.referrer_domain',
  utm_source: 'e.utm_source',
  utm_medium: 'e.utm_medium',
  utm_campaign: 'e.utm_campaign',
  link: 'e.custom_link_id::text',
  // custom-links' read model link_rollups: the link's campaign (as filed now) and account domain.
  campaign: 'd.campaign_id::text',
  account_domain: 'd.account_domain',
};

/**
 * Each filter: the dimension it narrows, its column in the log and the per-link aggregates (`d`:
 * link_rollups), and the type of its values.
 */
const FILTERS: {
  grouping: Exclude<AnalyticsGrouping, 'time'>;
  column: string;
  type: 'uuid' | 'text';
  values: (filters: AnalyticsFilters) => string[] | undefined;
}[] = [
  { grouping: 'link', column: 'e.custom_link_id', type: 'uuid', values: (f) => f.linkIds },
  { grouping: 'country', column: 'e.country', type: 'text', values: (f) => f.countries },
  { grouping: 'device_type', column: 'e.device_type', type: 'text', values: (f) => f.deviceTypes },
  { grouping: 'utm_source', column: 'e.utm_source', type: 'text', values: (f) => f.utmSources },
  { grouping: 'utm_medium', column: 'e.utm_medium', type: 'text', values: (f) => f.utmMediums },
  { grouping: 'utm_campaign', column: 'e.utm_campaign', type: 'text', values: (f) => f.utmCampaigns },
  { grouping: 'referrer_domain', column: 'e.referrer_domain', type: 'text', values: (f) => f.referrerDomains },
  { grouping: 'campaign', column: 'd.campaign_id', type: 'uuid', values: (f) => f.campaignIds },
  { grouping: 'account_domain', column: 'd.account_domain', type: 'text', values: (f) => f.accountDomains },
];

/** The SQL of one metric over `e` (docs/api.md §6.9); `counts`: the events counted under the question's bot and internal flags. */
function metricSql(metric: AnalyticsMetric, source: AnalyticsSource, counts: string): string {
  const { internal, events } = SOURCES[source.kind];
  const sum = (condition: string) => `coalesce(sum(${events}) FILTER (WHERE ${condition}), 0)::bigint`;
  const distinctSessions = (condition: string) => `count(DISTINCT e.session_id) FILTER (WHERE ${condition})::bigint`;
  const counted = COUNTED[metric];
  if (counted) {
    const which = { asked: counts, bot: 'e.bot', internal: `NOT e.bot AND ${internal}` }[counted.which];
    return sum(`e.type = '${counted.type}' AND ${which}`);
  }
  const sql: Partial<Record<AnalyticsMetric, () => string>> = {
    // Persistent visitors plus ephemeral page views (§6.4), each distinct within the row.
    visitors: () => `(count(DISTINCT e.visitor_id) FILTER (WHERE e.type = 'page_view' AND ${counts})
              + count(DISTINCT e.page_view_id) FILTER (WHERE e.type = 'page_view' AND e.visitor_id IS NULL AND ${counts}))::bigint`,
    sessions: () => distinctSessions(counts),
    startedSessions: () => distinctSessions(`e.type = 'session_started' AND ${counts}`),
    engagedSessions: () => distinctSessions(`e.type = 'session_engaged' AND ${counts}`),
  };
  return (sql[metric] as () => string)();
}

/** Which events count in every metric but botOpens and internalOpens: bot and internal ones only when asked for. */
function countsSql({ source, filters }: AnalyticsStatement): string {
  return `(${filters.includeBots} OR NOT e.bot) AND (${filters.includeInternal} OR NOT ${SOURCES[source.kind].internal})`;
}

/** The analytics queries of the engagement module (docs/api.md §6.9): figures of the log or of its hourly aggregates. */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The buckets of [from, to) in the zone: local days, ISO weeks and months as PostgreSQL's
   * date_trunc(unit, at, zone) cuts them (a 23- or 25-hour day is one bucket), or consecutive hours
   * from the local hour holding `from`.
   */
  async buckets(interval: AnalyticsInterval, timezone: string, from: Date, to: Date): Promise<Bucket[]> {
    const series =
      interval === 'hour'
        ? `SELECT s FROM generate_series(date_trunc('hour', $2::timestamptz, $1::text), $3::timestamptz, interval '1 hour') AS s`
        : `SELECT l AT TIME ZONE $1::text AS s
             FROM generate_series(date_trunc('${interval}', $2::timestamptz AT TIME ZONE $1::text), $3::timestamptz AT TIME ZONE $1::text,
                                  interval '1 ${interval}') AS l`;
    const rows: { start: Date; offset_seconds: number }[] = await this.db.query(
      `SELECT s AS start, extract(epoch FROM (s AT TIME ZONE $1::text) - (s AT TIME ZONE 'UTC'))::int AS offset_seconds
         FROM (${series}) AS b WHERE s < $3::timestamptz ORDER BY s`,
      [timezone, from.toISOString(), to.toISOString()],
    );
    return rows.map((row) => ({ start: row.start, offsetSeconds: row.offset_seconds }));
  }

  /** The zone names PostgreSQL knows (not POSIX rules such as `UTC+3`, which it would also take). */
  async timezoneNames(): Promise<Set<string>> {
    const rows: { name: string }[] = await this.db.query(`SELECT name FROM pg_timezone_names`);
    return new Set(rows.map((row) => row.name));
  }

  /**
   * The figures per key: every key with events (time) or the top `limit` keys by the first
   * metric, descending, then key ascending with null last (dimensions).
   */
  async rows(
    organizationId: string,
    statement: AnalyticsStatement,
    key: AnalyticsKey,
    limit: number,
  ): Promise<FiguresRow[]> {
    const where = new SqlConditions();
    const keySql = this.keySql(where, statement.source, key);
    const body = this.body(where, organizationId, statement, key.groupBy);
    if (key.groupBy === 'time')
      return this.db.query(`SELECT ${keySql} AS key, ${body} GROUP BY 1 ORDER BY 1`, where.params);
    // A key is listed when one of its figures is not zero.
    const nonZero = statement.metrics.map(
      (metric) => `${metricSql(metric, statement.source, countsSql(statement))} > 0`,
    );
    return this.db.query(
      `SELECT ${keySql} AS key, ${body} GROUP BY 1 HAVING ${nonZero.join(' OR ')}
        ORDER BY "${statement.metrics[0]}" DESC, (${keySql}) COLLATE "C" ASC NULLS LAST LIMIT ${where.param(limit)}::int`,
      where.params,
    );
  }

  /** The figures of the whole range, each distinct value once. */
  async totals(organizationId: string, statement: AnalyticsStatement, groupBy: AnalyticsGrouping): Promise<FiguresRow> {
    const where = new SqlConditions();
    const [row]: FiguresRow[] = await this.db.query(
      `SELECT NULL AS key, ${this.body(where, organizationId, statement, groupBy)}`,
      where.params,
    );
    return row;
  }

  private keySql(where: SqlConditions, source: AnalyticsSource, key: AnalyticsKey): string {
    if (key.groupBy !== 'time') return source.kind === 'facets' ? 'e.value' : DIMENSIONS[key.groupBy];
    const at = SOURCES[source.kind].at;
    if (key.interval === 'hour') {
      const start = `${where.param(key.hourStart.toISOString())}::timestamptz`;
      return `${start} + floor(extract(epoch FROM ${at} - ${start}) / 3600) * interval '1 hour'`;
    }
    return `date_trunc('${key.interval}', ${at}, ${where.param(key.timezone)}::text)`;
  }

  /** The metrics, the source and the WHERE of a statement (the key's join included). */
  private body(
    where: SqlConditions,
    organizationId: string,
    statement: AnalyticsStatement,
    groupBy: AnalyticsGrouping,
  ): string {
    const { source, metrics, filters } = statement;
    const { at, internal } = SOURCES[source.kind];
    const org = where.param(organizationId);
    const table =
      source.kind === 'facets'
        ? this.facetRows(where, source.facet, statement, groupBy)
        : source.kind === 'log'
          ? 'link_events'
          : 'link_event_hours';
    where
      .add(`e.organization_id = ${org}::uuid AND ${at} >= $?::timestamptz`, statement.from.toISOString())
      .add(`${at} < $?::timestamptz`, statement.to.toISOString());
    // Bot and internal events count only in botOpens / internalOpens, or when asked for.
    if (!metrics.includes('botOpens') && !filters.includeBots) where.clause('NOT e.bot');
    if (!metrics.includes('internalOpens') && !filters.includeInternal) where.clause(`NOT ${internal}`);
    const types = metrics.map((metric) => COUNTED[metric]?.type);
    if (types.every((type) => type !== undefined)) where.add('e.type = ANY($?::text[])', [...new Set(types)]);
    // A filter sent empty (`country=`) matches nothing, as a list of unknown values does.
    const any = (column: string, values: string[] | undefined, type: string) => {
      if (values) where.add(`${column} = ANY($?::${type}[])`, values);
    };
    if (source.kind === 'facets') {
      // One facet answers: its own filter, if any, is on its value (ids as their text).
      const filter = FILTERS.find((f) => f.grouping === source.facet);
      const values = filter?.values(filters);
      any('e.value', filter?.type === 'uuid' ? values?.map((value) => value.toLowerCase()) : values, 'text');
    } else for (const filter of FILTERS) any(filter.column, filter.values(filters), filter.type);
    const byLink =
      source.kind !== 'facets' &&
      (groupBy === 'campaign' || groupBy === 'account_domain' || filters.campaignIds || filters.accountDomains);
    const join = byLink
      ? `LEFT JOIN link_rollups d ON d.organization_id = ${org}::uuid AND d.link_id = e.custom_link_id`
      : '';
    const counts = countsSql(statement);
    const figures = metrics.map((metric) => `${metricSql(metric, source, counts)} AS "${metric}"`).join(', ');
    return `${figures} FROM ${table} e ${join} WHERE ${where.toSql()}`;
  }

  /**
   * A facet's rows over the range: its days wholly inside the range (for a time series, none: its
   * buckets need hours), its hours before and after them. The statement's WHERE (organization,
   * range) applies to every part.
   */
  private facetRows(
    where: SqlConditions,
    facet: Facet,
    statement: AnalyticsStatement,
    groupBy: AnalyticsGrouping,
  ): string {
    const firstDay = Math.ceil(statement.from.getTime() / DAY_MS) * DAY_MS;
    const lastDay = Math.floor(statement.to.getTime() / DAY_MS) * DAY_MS;
    const name = where.param(facet);
    const at = (instant: number) => `${where.param(new Date(instant).toISOString())}::timestamptz`;
    const columns = 'organization_id, value, type, bot, internal, events';
    // Each part a plain range, so that each is one index-only range scan.
    const hours = (from: number, to: number) =>
      `SELECT ${columns}, hour AS at FROM event_facet_hours WHERE facet = ${name} AND hour >= ${at(from)} AND hour < ${at(to)}`;
    const [from, to] = [statement.from.getTime(), statement.to.getTime()];
    if (groupBy === 'time' || firstDay >= lastDay) return `(${hours(from, to)})`;
    return `(${hours(from, firstDay)}
             UNION ALL
             SELECT ${columns}, day FROM event_facet_days WHERE facet = ${name} AND day >= ${at(firstDay)} AND day < ${at(lastDay)}
             UNION ALL
             ${hours(lastDay, to)})`;
  }
}

/**
 * The facet that holds a question's answer: the one dimension it groups or filters by (`all` when
 * none), or null when it involves links or several dimensions (the hourly aggregates answer then).
 */
export function facetOf(groupBy: AnalyticsGrouping, filters: AnalyticsFilters): Facet | null {
  const asked = new Set(FILTERS.filter((filter) => filter.values(filters)).map((filter) => filter.grouping));
  if (groupBy !== 'time') asked.add(groupBy);
  const [only, ...others] = [...asked];
  if (others.length > 0 || only === 'link') return null;
  return only ?? 'all';
}
