import { BOT_REASONS, type DistinctKind, type LinkRollupDelta, type TimeStats } from '../engagement';

/** The engagement rollup stored on the link row: which statistic lands in which column. */
const TIME_COLUMNS: [keyof TimeStats, string, 'LEAST' | 'GREATEST'][] = [
  ['firstOpenedAt', 'first_opened_at', 'LEAST'],
  ['lastOpenedAt', 'last_opened_at', 'GREATEST'],
  ['firstStartedAt', 'first_started_at', 'LEAST'],
  ['firstEngagedAt', 'first_engaged_at', 'LEAST'],
  ['firstLeadSubmittedAt', 'first_lead_submitted_at', 'LEAST'],
  ['firstMeetingClickedAt', 'first_meeting_clicked_at', 'LEAST'],
  ['firstMeetingBookedAt', 'first_meeting_booked_at', 'LEAST'],
];

const COUNT_COLUMNS: [DistinctKind, string][] = [
  ['page_view', 'page_view_count'],
  ['ephemeral_page_view', 'ephemeral_page_view_count'],
  ['visitor', 'persistent_visitor_count'],
  ['session', 'session_count'],
  ['started_session', 'started_session_count'],
  ['engaged_session', 'engaged_session_count'],
];

const botColumn = (reason: string) => `bot_${reason}`;

/** The delta's columns, each passed as one array (unnest): name and element type. */
const DELTA: [string, string][] = [
  ['link_id', 'uuid'],
  ['open_observed', 'boolean'],
  ['bot_open_count', 'integer'],
  ...BOT_REASONS.map((reason): [string, string] => [botColumn(reason), 'integer']),
  ['internal_open_count', 'integer'],
  ['load_count', 'integer'],
  ...COUNT_COLUMNS.map(([, column]): [string, string] => [column, 'integer']),
  ...TIME_COLUMNS.map(([, column]): [string, string] => [column, 'timestamptz']),
  ['last_activity_at', 'timestamptz'],
  ['last_activity_type', 'text'],
  ['last_activity_event_id', 'text'],
];

/** The rollup columns a merge writes, besides the stage. */
const MERGED = [
  'open_observed',
  'bot_open_count',
  'bot_opens',
  'internal_open_count',
  'load_count',
  ...COUNT_COLUMNS.map(([, c]) => c),
  ...TIME_COLUMNS.map(([, c]) => c),
  'last_activity_at',
  'last_activity_type',
  'last_activity_event_id',
];

/** The parameters of MERGE_ROLLUPS after the organization ($1): one array per delta column (the time follows them). */
export function mergeParameters(deltas: LinkRollupDelta[]): unknown[][] {
  const value: Record<string, (d: LinkRollupDelta) => unknown> = {
    link_id: (d) => d.linkId,
    open_observed: (d) => d.stats.openObserved,
    bot_open_count: (d) => d.stats.botOpenCount,
    ...Object.fromEntries(
      BOT_REASONS.map((reason) => [botColumn(reason), (d: LinkRollupDelta) => d.stats.botOpens[reason]]),
    ),
    internal_open_count: (d) => d.stats.internalOpenCount,
    load_count: (d) => d.stats.loadCount,
    ...Object.fromEntries(COUNT_COLUMNS.map(([kind, column]) => [column, (d: LinkRollupDelta) => d.newDistinct(kind)])),
    // ISO text rather than Dates: pg's own Date formatting is slow for thousands of them.
    ...Object.fromEntries(
      TIME_COLUMNS.map(([field, column]) => [column, (d: LinkRollupDelta) => d.stats[field]?.toISOString() ?? null]),
    ),
    last_activity_at: (d) => d.stats.lastActivity?.at.toISOString() ?? null,
    last_activity_type: (d) => d.stats.lastActivity?.type ?? null,
    last_activity_event_id: (d) => d.stats.lastActivity?.eventId ?? null,
  };
  return DELTA.map(([column]) => deltas.map(value[column]));
}

/**
 * Empties the organization's rollups, as a link has them before its first event (a refold then
 * folds the whole log again: docs/api.md §6.4). Only links with a rollup are written.
 */
export const RESET_ROLLUPS = `
  UPDATE custom_links SET ${[...MERGED, 'stage'].map((c) => `${c} = DEFAULT`).join(', ')}
   WHERE organization_id = $1 AND (open_observed OR bot_open_count > 0 OR internal_open_count > 0 OR last_activity_at IS NOT NULL)`;

/**
 * Merges a batch's statistics into each link (docs/api.md §6.4), rows already locked by the caller:
 * counters add, times take the earliest/latest (LEAST/GREATEST skip nulls), the last activity is the
 * later one (ties by eventId, byte order), and the stage follows from the merged times, so it never
 * regresses. Only links whose rollup changes are written, and the statement moves their updated_at
 * itself, as the touch trigger would (migration LinkRollupWrites skips the trigger then), with the
 * time bound as the last parameter. Citus refuses a stable function (now(), jsonb_build_object) in a
 * CASE of DML, so the merged bot_opens is built beside the CASE that picks it.
 */
export const MERGE_ROLLUPS = `
  UPDATE custom_links l SET ${[...MERGED, 'stage'].map((c) => `${c} = m.${c}`).join(', ')},
         updated_at = greatest($${DELTA.length + 2}::timestamptz, l.updated_at)
  FROM (
    SELECT cur.id, t.*, CASE WHEN t.first_engaged_at IS NOT NULL THEN 'engaged' WHEN t.first_started_at IS NOT NULL THEN 'started'
                             WHEN t.first_opened_at IS NOT NULL THEN 'opened' ELSE 'not_opened' END AS stage
      FROM unnest(${DELTA.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) AS d(${DELTA.map(([c]) => c).join(', ')})
      JOIN custom_links cur ON cur.organization_id = $1 AND cur.id = d.link_id
     CROSS JOIN LATERAL (SELECT d.last_activity_at IS NOT NULL AND (cur.last_activity_at IS NULL OR d.last_activity_at > cur.last_activity_at
             OR (d.last_activity_at = cur.last_activity_at AND d.last_activity_event_id COLLATE "C" > cur.last_activity_event_id COLLATE "C")) AS newer) n
     CROSS JOIN LATERAL (SELECT jsonb_build_object(${BOT_REASONS.map((r) => `'${r}', coalesce((cur.bot_opens->>'${r}')::int, 0) + d.${botColumn(r)}`).join(', ')}) AS bot_opens) b
     CROSS JOIN LATERAL (SELECT
       cur.open_observed OR d.open_observed AS open_observed,
       cur.bot_open_count + d.bot_open_count AS bot_open_count,
       CASE WHEN d.bot_open_count = 0 THEN cur.bot_opens ELSE b.bot_opens END AS bot_opens,
       cur.internal_open_count + d.internal_open_count AS internal_open_count,
       cur.load_count + d.load_count AS load_count,
       ${COUNT_COLUMNS.map(([, c]) => `cur.${c} + d.${c} AS ${c}`).join(', ')},
       ${TIME_COLUMNS.map(([, c, merge]) => `${merge}(cur.${c}, d.${c}) AS ${c}`).join(', ')},
       CASE WHEN n.newer THEN d.last_activity_at ELSE cur.last_activity_at END AS last_activity_at,
       CASE WHEN n.newer THEN d.last_activity_type ELSE cur.last_activity_type END AS last_activity_type,
       CASE WHEN n.newer THEN d.last_activity_event_id ELSE cur.last_activity_event_id END AS last_activity_event_id) t
  ) m
  WHERE l.organization_id = $1 AND l.id = m.id
    AND (${MERGED.map((c) => `m.${c}`).join(', ')}) IS DISTINCT FROM (${MERGED.map((c) => `l.${c}`).join(', ')})`;
