import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/**
 * Counters of the rules the app enforces. Label values are names written in the code (a limit's
 * name, a kind of ingestion), never an organization, a key or anything a caller sent.
 */
const limitRejections = new Counter({
  name: 'engagement_limit_rejections_total',
  help: 'Requests answered 429 by a rate limit or quota, by limit name',
  labelNames: ['limit'],
  registers: [metricsRegistry],
});

export const idempotencyReplays = new Counter({
  name: 'engagement_idempotency_replays_total',
  help: 'Requests answered with the stored response of their Idempotency-Key',
  registers: [metricsRegistry],
});

export const idempotencyConflicts = new Counter({
  name: 'engagement_idempotency_conflicts_total',
  help: 'Requests answered 409 because their Idempotency-Key is in flight or was used with another body',
  registers: [metricsRegistry],
});

const ingestionLag = new Histogram({
  name: 'engagement_ingestion_lag_seconds',
  help: 'At ingestion, now minus when the thing ingested happened (a session: its endTime, else startTime; a link event: its occurredAt)',
  labelNames: ['kind'],
  buckets: [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 86_400, 7 * 86_400],
  registers: [metricsRegistry],
});

const foldLag = new Histogram({
  name: 'engagement_fold_lag_seconds',
  help: 'When a batch of link events is folded into the rollups: now minus when the batch was appended',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

const foldBacklog = new Gauge({
  name: 'engagement_fold_backlog_seconds',
  help: 'Now minus the oldest appended batch of link events not folded yet (0 when none waits), as a folder last saw it',
  registers: [metricsRegistry],
});

/** Qualifiers that follow a limit's name in its counter key and name a window of it, not a subject. */
const WINDOW_QUALIFIERS = new Set(['client', 'link', 'hour', 'day']);

/**
 * The limit a counter key belongs to: `limit:<name>[:client|link|hour|day]:<subject>…` gives
 * `<name>[:qualifier]`. Only the code's own words are kept, so the subject (an organization id, a
 * client address, a slug) never becomes a label value.
 */
export function limitNameOf(key: string): string {
  const [prefix, name, qualifier] = key.split(':');
  if (prefix !== 'limit' || !name || !/^[a-z][a-z-]*$/.test(name)) return 'other';
  return qualifier !== undefined && WINDOW_QUALIFIERS.has(qualifier) ? `${name}:${qualifier}` : name;
}

/** Counts one 429 of the named limit (a name from the code, or a counter key: see limitNameOf). */
export function countLimitRejection(nameOrKey: string): void {
  limitRejections.inc({ limit: nameOrKey.startsWith('limit:') ? limitNameOf(nameOrKey) : nameOrKey });
}

export type IngestionKind = 'session' | 'link_event';

/** Records how late something was ingested; a timestamp in the future (clock skew) counts as 0. */
export function observeIngestionLag(kind: IngestionKind, happenedAt: Date, now = Date.now()): void {
  ingestionLag.observe({ kind }, Math.max(0, (now - happenedAt.getTime()) / 1000));
}

/** Records how long a batch of link events waited for the fold. */
export function observeFoldLag(waitedMs: number): void {
  foldLag.observe(Math.max(0, waitedMs / 1000));
}

/** Sets the fold backlog: the oldest unfolded batch's age (0: none waits). */
export function setFoldBacklog(ageMs: number): void {
  foldBacklog.set(Math.max(0, ageMs / 1000));
}
