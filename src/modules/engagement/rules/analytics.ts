import { cell, csvLine } from '../../exports';

/**
 * The analytics question (docs/api.md §6.9): which figures, grouped how, over which range. Pure
 * rules; the SQL that answers lives in the analytics repository.
 */
export const ANALYTICS_METRICS = [
  'opens',
  'loads',
  'visitors',
  'sessions',
  'startedSessions',
  'engagedSessions',
  'leads',
  'meetingsClicked',
  'meetingsBooked',
  'botOpens',
  'internalOpens',
] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/**
 * Metrics that count distinct values (visitors, sessions): a bucket's figure is not the sum of its
 * hours', so only the log answers them. The others count events, which the hourly aggregates hold.
 */
export const DISTINCT_METRICS: ReadonlySet<AnalyticsMetric> = new Set([
  'visitors',
  'sessions',
  'startedSessions',
  'engagedSessions',
]);

export const ANALYTICS_GROUPINGS = [
  'time',
  'country',
  'device_type',
  'browser',
  'os',
  'referrer_domain',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'link',
  'campaign',
  'account_domain',
] as const;
export type AnalyticsGrouping = (typeof ANALYTICS_GROUPINGS)[number];

export const ANALYTICS_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

const DAY_MS = 86_400_000;

/** The longest range of one question: 31 days of hours, 731 days (two years and a leap day) otherwise. */
export const MAX_RANGE_DAYS = { hour: 31, other: 731 } as const;

/** Why a range cannot be asked (reported at `to`), or null. */
export function rangeProblem(from: Date, to: Date, interval: AnalyticsInterval | null): string | null {
  if (from.getTime() >= to.getTime()) return '`to` must be after `from`';
  const days = interval === 'hour' ? MAX_RANGE_DAYS.hour : MAX_RANGE_DAYS.other;
  if (to.getTime() - from.getTime() > days * DAY_MS)
    return interval === 'hour'
      ? `the range may span at most ${days} days with interval hour`
      : `the range may span at most ${days} days`;
  return null;
}

/** The range of the same duration just before `from` (compare=previous). */
export function previousRange(from: Date, to: Date): { from: Date; to: Date } {
  return { from: new Date(2 * from.getTime() - to.getTime()), to: from };
}

/** Metrics in the order asked, each once. */
export function uniqueMetrics(metrics: readonly AnalyticsMetric[]): AnalyticsMetric[] {
  return [...new Set(metrics)];
}

/**
 * A time bucket's key (docs/api.md §6.9): its start in the zone's local time with the zone's
 * offset, e.g. `2026-03-29T00:00:00.000+01:00`.
 */
export function bucketKey(start: Date, offsetSeconds: number): string {
  const local = new Date(start.getTime() + offsetSeconds * 1000).toISOString().slice(0, 23);
  const sign = offsetSeconds < 0 ? '-' : '+';
  const minutes = Math.abs(Math.round(offsetSeconds / 60));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Whether an instant is a whole UTC hour: the hourly aggregates can count up to it exactly. */
export const onUtcHour = (at: Date): boolean => at.getTime() % 3_600_000 === 0;

/** The rows as CSV (RFC 4180, formula-safe cells as exports write them): `key`, then the metrics. */
export function analyticsCsv(
  metrics: readonly AnalyticsMetric[],
  rows: readonly ({ key: string | null } & Partial<Record<AnalyticsMetric, number>>)[],
): string {
  return [
    csvLine(['key', ...metrics]),
    ...rows.map((row) => csvLine([cell(row.key), ...metrics.map((m) => cell(row[m] ?? 0))])),
  ].join('');
}
