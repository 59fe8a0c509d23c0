import {
  BOT_REASONS,
  LINK_FIGURE_COLUMNS,
  type BotOpens,
  type DistinctKind,
  type LinkRollupDelta,
  type TimeStats,
} from '../engagement';

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

/** The delta's columns, each passed as one array (unnest): name and element type. */
const DELTA: [string, string][] = [
  ['link_id', 'uuid'],
  ['open_observed', 'boolean'],
  ['bot_open_count', 'integer'],
  ['bot_opens', 'jsonb'],
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

/**
 * A link's bot opens by reason after a batch: what the locked row held plus the batch's. Merged here
 * rather than in the statement: Citus refuses jsonb_build_object (STABLE) once its planner pulls it
 * into the CASE of an UPDATE.
 */
export function mergedBotOpens(
  held: Partial<BotOpens>,
  batch: Pick<LinkRollupDelta['stats'], 'botOpenCount' | 'botOpens'>,
): Partial<BotOpens> {
  if (batch.botOpenCount === 0) return held;
  return Object.fromEntries(BOT_REASONS.map((reason) => [reason, (held[reason] ?? 0) + batch.botOpens[reason]]));
}

/**
 * The parameters of MERGE_ROLLUPS after the organization ($1): one array per delta column (the time
 * follows them); `held`: each link's bot opens as the caller locked them.
 */
export function mergeParameters(deltas: LinkRollupDelta[], held: Map<string, Partial<BotOpens>>): unknown[][] {
  const value: Record<string, (d: LinkRollupDelta) => unknown> = {
    link_id: (d) => d.linkId,
    open_observed: (d) => d.stats.openObserved,
    bot_open_count: (d) => d.stats.botOpenCount,
    bot_opens: (d) => JSON.stringify(mergedBotOpens(held.get(d.linkId) ?? {}, d.stats)),
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

/** The link columns its campaign's figures depend on, as a write returns them (LinkFiling.figuresChanged). */
const RETURNING_FIGURES = (alias: string) => `RETURNING ${LINK_FIGURE_COLUMNS.map((c) => `${alias}.${c}`).join(', ')}`;

/** A link that has a rollup: what RESET_ROLLUPS empties. */
export const WITH_ROLLUP = `(open_observed OR bot_open_count > 0 OR internal_open_count > 0 OR last_activity_at IS NOT NULL)`;

/**
 * Empties the rollups of the organization's links among $2 (locked by the caller, each WITH_ROLLUP),
 * as a link has them before its first event (a refold then folds the whole log again: docs/api.md §6.4).
 */
export const RESET_ROLLUPS = `
  UPDATE custom_links l SET ${[...MERGED, 'stage'].map((c) => `${c} = DEFAULT`).join(', ')}
   WHERE l.organization_id = $1 AND l.id = ANY($2::uuid[]) ${RETURNING_FIGURES('l')}`;

/**
 * Merges a batch's statistics into each link (docs/api.md §6.4), rows already locked by the caller:
 * counters add, times take the earliest/latest (LEAST/GREATEST skip nulls), the last activity is the
 * later one (ties by eventId, byte order), and the stage follows from the merged times, so it never
 * regresses. Only links whose rollup changes are written (and returned), and the statement moves their updated_at
 * itself, as the touch trigger would (migration LinkRollupWrites skips the trigger then), with the
 * time bound as the last parameter. Citus refuses a stable function (now(), jsonb_build_object) in a
 * CASE of DML, even one its planner pulls into a CASE from a subquery: the statement calls none, and the
 * merged bot_opens comes as a parameter (mergedBotOpens).
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
     CROSS JOIN LATERAL (SELECT
       cur.open_observed OR d.open_observed AS open_observed,
       cur.bot_open_count + d.bot_open_count AS bot_open_count,
       d.bot_opens,
       cur.internal_open_count + d.internal_open_count AS internal_open_count,
       cur.load_count + d.load_count AS load_count,
       ${COUNT_COLUMNS.map(([, c]) => `cur.${c} + d.${c} AS ${c}`).join(', ')},
       ${TIME_COLUMNS.map(([, c, merge]) => `${merge}(cur.${c}, d.${c}) AS ${c}`).join(', ')},
       CASE WHEN n.newer THEN d.last_activity_at ELSE cur.last_activity_at END AS last_activity_at,
       CASE WHEN n.newer THEN d.last_activity_type ELSE cur.last_activity_type END AS last_activity_type,
       CASE WHEN n.newer THEN d.last_activity_event_id ELSE cur.last_activity_event_id END AS last_activity_event_id) t
  ) m
  WHERE l.organization_id = $1 AND l.id = m.id
    AND (${MERGED.map((c) => `m.${c}`).join(', ')}) IS DISTINCT FROM (${MERGED.map((c) => `l.${c}`).join(', ')})
  ${RETURNING_FIGURES('l')}`;
