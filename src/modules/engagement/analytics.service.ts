import { Injectable } from '@nestjs/common';
import { RequestValidationError, valueError, type ValidationIssue } from '../../common/errors/validation-issue';
import {
  analyticsCsv,
  bucketKey,
  DISTINCT_METRICS,
  onUtcHour,
  previousRange,
  rangeProblem,
  uniqueMetrics,
  type AnalyticsGrouping,
  type AnalyticsInterval,
  type AnalyticsMetric,
} from './rules/analytics';
import {
  AnalyticsRepository,
  facetOf,
  type AnalyticsFilters,
  type AnalyticsKey,
  type AnalyticsSource,
  type Bucket,
  type FiguresRow,
} from './analytics.repository';
import { AnalyticsCache } from './analytics-cache';
import { FoldProgress } from './fold-progress';
import type { AnalyticsQuery } from './dto/analytics.query';
import type { AnalyticsFiguresResponse, AnalyticsResponse, AnalyticsRowResponse } from './dto/analytics.response';

/** An answer and, for format=csv, its rows as CSV. */
export type AnalyticsAnswer = { json: AnalyticsResponse } | { csv: string };

/**
 * The analytics API (docs/api.md §6.9): one question per request, answered from the fold's hourly
 * aggregates when they hold it exactly (event counts over whole UTC hours), else from the log.
 */
@Injectable()
export class AnalyticsService {
  private zones?: Promise<Set<string>>;

  constructor(
    private readonly analytics: AnalyticsRepository,
    private readonly progress: FoldProgress,
    private readonly cache: AnalyticsCache,
  ) {}

  async answer(organizationId: string, query: AnalyticsQuery): Promise<AnalyticsAnswer> {
    const metrics = uniqueMetrics(query.metrics);
    const interval = query.group_by === 'time' ? (query.interval ?? null) : null;
    await this.check(query, interval);
    // asOf is read before the figures it qualifies (the fold only adds), with the aggregates' version.
    const [{ asOf, version }, buckets] = await Promise.all([
      this.progress.state(organizationId),
      interval ? this.analytics.buckets(interval, query.timezone, query.from, query.to) : [],
    ]);
    const filters = filtersOf(query);
    const sourceOf = (from: Date, to: Date, edges: Bucket[]) =>
      sourceFor(metrics, from, to, edges, query.group_by, filters);
    const statement = {
      source: sourceOf(query.from, query.to, buckets),
      metrics,
      filters,
      from: query.from,
      to: query.to,
    };
    // After check(), an interval is there exactly when the grouping is time.
    const key: AnalyticsKey = interval
      ? { groupBy: 'time', interval, timezone: query.timezone, hourStart: buckets[0].start }
      : { groupBy: query.group_by as Exclude<AnalyticsQuery['group_by'], 'time'> };
    const previous = query.compare === 'previous' ? previousRange(query.from, query.to) : null;
    const previousStatement = previous
      ? { ...statement, ...previous, source: sourceOf(previous.from, previous.to, []) }
      : null;
    const figures = () =>
      Promise.all([
        this.analytics.rows(organizationId, statement, key, query.limit),
        this.analytics.totals(organizationId, statement, query.group_by),
        previousStatement ? this.analytics.totals(organizationId, previousStatement, query.group_by) : null,
      ]);
    // The log also counts events not folded yet: only answers of the aggregates are kept.
    const fromAggregates = [statement, previousStatement].every((s) => !s || s.source.kind !== 'log');
    const [rows, totals, before] = fromAggregates
      ? await this.cache.remember(organizationId, version, { ...query, format: undefined }, figures)
      : await figures();
    const answerRows =
      query.group_by === 'time' ? timeRows(metrics, buckets, rows) : rows.map((r) => rowOf(metrics, r));
    if (query.format === 'csv') return { csv: analyticsCsv(metrics, answerRows) };
    return {
      json: {
        metrics,
        groupBy: query.group_by,
        interval,
        timezone: query.timezone,
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        asOf: asOf.toISOString(),
        rows: answerRows,
        totals: figuresOf(metrics, totals),
        previous: before ? figuresOf(metrics, before) : null,
      },
    };
  }

  /** The checks no decorator can make: the interval with time, the zone, the range. */
  private async check(query: AnalyticsQuery, interval: AnalyticsInterval | null): Promise<void> {
    const issues: ValidationIssue[] = [];
    if (query.group_by === 'time' && !interval)
      issues.push({ type: 'missing', loc: ['query', 'interval'], msg: 'Field required', input: null });
    if (!(await this.knownZones()).has(query.timezone))
      issues.push(valueError(['query', 'timezone'], query.timezone, 'not a known IANA time zone'));
    const problem = rangeProblem(query.from, query.to, interval);
    if (problem) issues.push(valueError(['query', 'to'], query.to.toISOString(), problem));
    if (issues.length > 0) throw new RequestValidationError(issues);
  }

  private knownZones(): Promise<Set<string>> {
    this.zones ??= this.analytics.timezoneNames().catch((error: unknown) => {
      this.zones = undefined;
      throw error;
    });
    return this.zones;
  }
}

/**
 * The fold's aggregates answer exactly when every metric counts events and the range and every
 * bucket boundary fall on whole UTC hours (an hour's events then lie in one bucket): one facet
 * when the question involves at most one dimension, else the hourly aggregates per link and context.
 */
function sourceFor(
  metrics: AnalyticsMetric[],
  from: Date,
  to: Date,
  buckets: Bucket[],
  groupBy: AnalyticsGrouping,
  filters: AnalyticsFilters,
): AnalyticsSource {
  const counted = metrics.every((metric) => !DISTINCT_METRICS.has(metric));
  const aligned = onUtcHour(from) && onUtcHour(to) && buckets.every((bucket) => onUtcHour(bucket.start));
  if (!counted || !aligned) return { kind: 'log' };
  const facet = facetOf(groupBy, filters);
  return facet ? { kind: 'facets', facet } : { kind: 'hours' };
}

function filtersOf(query: AnalyticsQuery): AnalyticsFilters {
  return {
    campaignIds: query.campaign_id,
    linkIds: query.link_id,
    countries: query.country,
    deviceTypes: query.device_type,
    utmSources: query.utm_source,
    utmMediums: query.utm_medium,
    utmCampaigns: query.utm_campaign,
    referrerDomains: query.referrer_domain,
    accountDomains: query.account_domain,
    includeBots: query.include_bots,
    includeInternal: query.include_internal,
  };
}

function figuresOf(metrics: AnalyticsMetric[], row: FiguresRow | null): AnalyticsFiguresResponse {
  return Object.fromEntries(metrics.map((metric) => [metric, row ? Number(row[metric]) : 0]));
}

function rowOf(metrics: AnalyticsMetric[], row: FiguresRow): AnalyticsRowResponse {
  return { key: row.key === null ? null : String(row.key), ...figuresOf(metrics, row) };
}

/** Every bucket of the range, ascending, zeros where no event fell. */
function timeRows(metrics: AnalyticsMetric[], buckets: Bucket[], rows: FiguresRow[]): AnalyticsRowResponse[] {
  // A bucket's start: a Date, or its ISO text in a kept answer.
  const byStart = new Map(rows.map((row) => [new Date(row.key as Date | string).getTime(), row]));
  return buckets.map((bucket) => ({
    key: bucketKey(bucket.start, bucket.offsetSeconds),
    ...figuresOf(metrics, byStart.get(bucket.start.getTime()) ?? null),
  }));
}
