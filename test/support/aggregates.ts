import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { insertSessionRows } from './session-writes';

/**
 * Oracles and seeding for the derived aggregates (session_counts, campaign_engagement), computed
 * straight from the source rows (sessions, custom_links) with the definitions of docs/api.md §11.3, §6.5
 * and §2.10 — never from the aggregate tables themselves.
 */

export const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;

/** GET /sessions filters as query strings (docs/api.md §11.3). */
export interface SessionFilters {
  start_time_from?: string;
  start_time_to?: string;
  qualification_status?: string;
  buying_intent?: string;
  booked_status?: string;
  email?: string;
}

/** A docs/api.md §1.1 timestamp (a date, or a date-time; UTC without an offset) as an instant (node-postgres sends years < 1 as BC). */
export function instant(value: string): Date {
  const bare = /T/.test(value) && !/(Z|[+-]\d\d(:?\d\d)?)$/i.test(value);
  const date = new Date(bare ? `${value}Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${value}`);
  return date;
}

/** WHERE clause over sessions for one organization and filters ($1..$7); an email filter is a plain substring test. */
function sessionWhere(organizationId: string, q: SessionFilters): { sql: string; params: unknown[] } {
  const list = (v: string | undefined) => (v === undefined ? null : v.split(','));
  return {
    sql: `organization_id = $1 AND ${VISIBLE}
      AND ($2::timestamptz IS NULL OR start_time >= $2::timestamptz) AND ($3::timestamptz IS NULL OR start_time <= $3::timestamptz)
      AND ($4::text[] IS NULL OR effective_qualification_status = ANY($4::text[]))
      AND ($5::text[] IS NULL OR buying_intent = ANY($5::text[]))
      AND ($6::text[] IS NULL OR booked_status = ANY($6::text[]))
      AND ($7::text IS NULL OR strpos(email_key, lower($7::text)) > 0)`,
    params: [
      organizationId,
      q.start_time_from === undefined ? null : instant(q.start_time_from),
      q.start_time_to === undefined ? null : instant(q.start_time_to),
      list(q.qualification_status),
      list(q.buying_intent),
      list(q.booked_status),
      q.email ?? null,
    ],
  };
}

/** The exact total GET /sessions must report. */
export async function oracleSessionCount(pool: Pool, organizationId: string, q: SessionFilters): Promise<number> {
  const where = sessionWhere(organizationId, q);
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sessions WHERE ${where.sql}`,
    where.params,
  );
  return rows[0].n;
}

/** The ids of the page GET /sessions must return: newest first, then id (both descending). */
export async function oracleSessionPage(
  pool: Pool,
  organizationId: string,
  q: SessionFilters,
  offset: number,
  limit: number,
): Promise<string[]> {
  const where = sessionWhere(organizationId, q);
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM sessions WHERE ${where.sql} ORDER BY start_time DESC, id DESC OFFSET $8 LIMIT $9`,
    [...where.params, offset, limit],
  );
  return rows.map((r) => r.id);
}

/** How many matching sessions start at or after `at` (to aim deep offsets at month boundaries). */
export async function oracleCountFrom(
  pool: Pool,
  organizationId: string,
  q: SessionFilters,
  at: string,
): Promise<number> {
  return oracleSessionCount(pool, organizationId, { ...q, start_time_from: at, start_time_to: undefined });
}

/**
 * The counts of visible sessions: per UTC `unit`, the compacted table, how a pending delta names its
 * bucket, and whether rows are per facet combination (the totals sum them).
 */
const COUNT_TABLES = [
  { label: 'month', unit: 'month', table: 'session_counts', delta: 'month', byFacets: true },
  { label: 'day', unit: 'day', table: 'session_day_counts', delta: `date_trunc('day', hour)`, byFacets: true },
  { label: 'hour', unit: 'hour', table: 'session_hour_counts', delta: 'hour', byFacets: true },
  { label: 'day totals', unit: 'day', table: 'session_day_totals', delta: `date_trunc('day', hour)`, byFacets: false },
  { label: 'hour totals', unit: 'hour', table: 'session_hour_totals', delta: 'hour', byFacets: false },
] as const;

/**
 * Every (organization, UTC month, day or hour, facets) whose compacted count plus pending deltas
 * differs from the visible sessions, over the whole tables (every existing organization), labelled
 * by table; the totals' facets read `*`. One statement, so one snapshot: exact even while other writers run.
 */
export async function sessionCountDrift(pool: Pool): Promise<Record<string, unknown>[]> {
  const drift = ({ label, unit, table, delta, byFacets }: (typeof COUNT_TABLES)[number]) => {
    const facets = byFacets
      ? `coalesce(effective_qualification_status, '∅') AS q, coalesce(buying_intent, '∅') AS i, coalesce(booked_status, '∅') AS b`
      : `'*' AS q, '*' AS i, '*' AS b`;
    return `(WITH tracked AS (
       SELECT organization_id, at, q, i, b, sum(sessions)::bigint AS n FROM (
         SELECT organization_id, ${unit} AS at, ${facets}, sessions FROM ${table}
         UNION ALL
         SELECT organization_id, ${delta}, ${facets}, sessions FROM session_count_deltas WHERE ${delta} IS NOT NULL) x
        WHERE organization_id IN (SELECT id FROM organizations)
        GROUP BY organization_id, at, q, i, b HAVING sum(sessions) <> 0),
     actual AS (
       SELECT organization_id, date_trunc('${unit}', start_time AT TIME ZONE 'UTC') AS at, ${facets}, count(*)::bigint AS n
         FROM sessions WHERE ${VISIBLE} GROUP BY 1, 2, 3, 4, 5)
     SELECT '${label}' AS unit, organization_id, at, q, i, b, t.n::int AS tracked, a.n::int AS actual
       FROM tracked t FULL JOIN actual a USING (organization_id, at, q, i, b)
      WHERE t.n IS DISTINCT FROM a.n ORDER BY 2, 3, 4, 5, 6 LIMIT 50)`;
  };
  const { rows } = await pool.query(COUNT_TABLES.map(drift).join(' UNION ALL '));
  return rows;
}

/**
 * Every session whose row in session_emails (the email search) differs from what the sessions table
 * says it should be: visible sessions with an email, with their start time, email and facets. Empty
 * when the search holds exactly those sessions. One statement, so one snapshot.
 */
export async function sessionEmailDrift(pool: Pool): Promise<Record<string, unknown>[]> {
  const columns =
    'organization_id, id, start_time, email_key, effective_qualification_status, buying_intent, booked_status';
  const { rows } = await pool.query(
    `WITH expected AS (SELECT ${columns} FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL),
          held AS (SELECT ${columns} FROM session_emails)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM expected EXCEPT SELECT * FROM held) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM held EXCEPT SELECT * FROM expected) x)
     ORDER BY organization_id, id, drift LIMIT 50`,
  );
  return rows;
}

export async function compactSessionCounts(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT compact_session_counts() AS n`);
  return Number(rows[0].n);
}

/** Pending delta rows of an organization: [all, negative]. */
export async function pendingDeltas(
  pool: Pool,
  organizationId: string,
): Promise<{ rows: number; negative: number; compacted: number }> {
  const { rows } = await pool.query<{ rows: number; negative: number; compacted: number }>(
    `SELECT (SELECT count(*) FROM session_count_deltas WHERE organization_id = $1 AND sessions <> 0)::int AS rows,
            (SELECT count(*) FROM session_count_deltas WHERE organization_id = $1 AND sessions < 0)::int AS negative,
            (SELECT count(*) FROM session_counts WHERE organization_id = $1 AND sessions <> 0)::int AS compacted`,
    [organizationId],
  );
  return rows[0];
}

/**
 * Holds back every compaction (the app's maintenance job runs one every 30 s when any worker of the
 * run is up) until the returned release is called: a zero delta row of `organizationId` is
 * committed and then locked FOR UPDATE, so a compaction's DELETE waits on it and, being one
 * statement, commits none of what it folded. Reads see the pending deltas meanwhile. A zero delta
 * changes no total.
 */
export async function holdCompactions(pool: Pool, organizationId: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const marker = '1900-01-01';
    await pool.query(
      `INSERT INTO session_count_deltas (organization_id, month, effective_qualification_status, buying_intent, booked_status, sessions)
       VALUES ($1, $2, NULL, NULL, NULL, 0)`,
      [organizationId, marker],
    );
    const client = await pool.connect();
    await client.query('BEGIN');
    const locked = await client.query(
      `SELECT 1 FROM session_count_deltas WHERE organization_id = $1 AND month = $2 AND sessions = 0 FOR UPDATE`,
      [organizationId, marker],
    );
    if ((locked.rowCount ?? 0) > 0) {
      return async () => {
        await client.query('ROLLBACK');
        client.release();
      };
    }
    // A compaction folded the marker before it was locked: try again.
    await client.query('ROLLBACK');
    client.release();
  }
  throw new Error('could not hold compactions back');
}

/**
 * Bulk sessions like bench/analytics.js, of organization $1: $2 rows from $3 (UTC), three per start
 * time, $4 seconds apart, with every facet value and NULLs, some staging and some pending. $5 (a seed)
 * varies the mix between organizations. The sessions only: insertSessions adds their derived rows.
 */
export const BULK_SESSIONS = `INSERT INTO sessions (organization_id, id, environment, analysis_status, display_id, start_time, end_time, session_type,
     email, email_key, name, business, qualification_status, effective_qualification_status, qualification_rationale,
     qualification_source, qualification_assessed_at, qualification_rubric_version_id, buying_intent, booked_status,
     session_status, tracking, details, fingerprint)
   SELECT $1::uuid, gen_random_uuid(),
     CASE WHEN (g + $5::int) % 23 = 0 THEN 'staging' ELSE 'production' END,
     CASE WHEN (g + $5::int) % 29 = 0 THEN 'pending' ELSE 'analyzed' END,
     'B-' || g, st, st + interval '20 minutes', 'ai_demo',
     e.email, e.email, 'Prospect ' || g, 'Company ' || (g % 50),
     q.status, q.status, 'Discussed.', 'automatic', st + interval '21 minutes', 'rubric-v3',
     (ARRAY[NULL, 'high', 'medium', 'low', 'none']::text[])[1 + ((g / 2) + $5::int) % 5],
     CASE (g + $5::int) % 7 WHEN 0 THEN NULL WHEN 1 THEN 'booked' WHEN 2 THEN 'booked' ELSE 'not_booked' END,
     'completed', '{"utmSource":"linkedin","device":"desktop","geoCountry":"US"}'::jsonb,
     '{"qualificationReason":"Budget confirmed","nextSteps":[],"summaryBullets":[],"timelineEvents":[],"topics":[],"objections":[]}'::jsonb,
     md5(g::text) || md5($1::text)
     FROM generate_series(1, $2::int) AS g
     CROSS JOIN LATERAL (SELECT $3::timestamptz + (g / 3) * $4::int * interval '1 second' + ((g / 3) % 997) * interval '1 millisecond' AS st) AS t
     CROSS JOIN LATERAL (SELECT CASE WHEN g % 4 = 0 THEN NULL ELSE 'bulk' || (g % 300) || '@agg' || $5::int || '.test' END AS email) AS e
     CROSS JOIN LATERAL (SELECT CASE (g * 7 + $5::int) % 5 WHEN 0 THEN NULL WHEN 1 THEN 'unqualified' WHEN 2 THEN 'unqualified' ELSE 'qualified' END AS status) AS q`;

/** BULK_SESSIONS with the rows the service derives from them. */
export async function insertSessions(
  pool: Pool,
  organizationId: string,
  opts: { count: number; first: string; stepSeconds: number; seed: number },
): Promise<void> {
  await insertSessionRows(pool, BULK_SESSIONS, [organizationId, opts.count, opts.first, opts.stepSeconds, opts.seed]);
}

/** One session row at an exact instant (text, so microseconds survive), with its facets and visibility. */
export interface PreciseSession {
  at: string;
  q?: string | null;
  intent?: string | null;
  booked?: string | null;
  environment?: string;
  analysis?: string;
}

export async function insertPreciseSessions(
  pool: Pool,
  organizationId: string,
  rows: PreciseSession[],
): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  await insertSessionRows(
    pool,
    `INSERT INTO sessions (organization_id, id, environment, analysis_status, start_time, qualification_status, effective_qualification_status,
       buying_intent, booked_status, tracking, details, fingerprint)
     SELECT $1::uuid, r.id, r.environment, r.analysis, r.at::timestamptz, r.q, r.q, r.intent, r.booked, '{}'::jsonb, '{}'::jsonb, md5(r.id::text) || md5(r.at)
       FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, at text, q text, intent text, booked text, environment text, analysis text)`,
    [
      organizationId,
      JSON.stringify(
        rows.map((r, i) => ({
          id: ids[i],
          at: r.at,
          q: r.q === undefined ? 'qualified' : r.q,
          intent: r.intent === undefined ? 'high' : r.intent,
          booked: r.booked === undefined ? 'booked' : r.booked,
          environment: r.environment ?? 'production',
          analysis: r.analysis ?? 'analyzed',
        })),
      ),
    ],
  );
  return ids;
}

/** GET /custom-link-campaigns/{id}/engagement as docs/api.md §6.5 / §2.10 define it, from the links filed in the campaign. */
export async function oracleCampaignEngagement(
  pool: Pool,
  organizationId: string,
  campaignId: string,
): Promise<Record<string, unknown>> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS generated,
            count(*) FILTER (WHERE active)::int AS active,
            count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
            count(*) FILTER (WHERE stage IN ('started', 'engaged'))::int AS started,
            count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
            count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
            count(*) FILTER (WHERE first_meeting_clicked_at IS NOT NULL)::int AS meeting_clicked,
            count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
            count(*) FILTER (WHERE bot_open_count > 0 AND NOT open_observed)::int AS bot_scanned_only,
            coalesce(sum(page_view_count), 0)::int AS page_views, coalesce(sum(load_count), 0)::int AS loads,
            coalesce(sum(persistent_visitor_count), 0)::int AS persistent, coalesce(sum(ephemeral_page_view_count), 0)::int AS ephemeral,
            coalesce(sum(session_count), 0)::int AS sessions, coalesce(sum(started_session_count), 0)::int AS started_sessions,
            coalesce(sum(engaged_session_count), 0)::int AS engaged_sessions,
            min(first_opened_at) AS first_opened_at, max(last_opened_at) AS last_opened_at, max(last_activity_at) AS last_activity_at
       FROM custom_links WHERE organization_id = $1 AND campaign_id = $2`,
    [organizationId, campaignId],
  );
  const r = rows[0] as Record<string, number> &
    Record<'first_opened_at' | 'last_opened_at' | 'last_activity_at', Date | null>;
  const unique = r.persistent + r.ephemeral;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    campaignId,
    generatedLinkCount: r.generated,
    activeLinkCount: r.active,
    openedLinkCount: r.opened,
    startedLinkCount: r.started,
    engagedLinkCount: r.engaged,
    leadSubmittedLinkCount: r.lead_submitted,
    meetingClickedLinkCount: r.meeting_clicked,
    meetingBookedLinkCount: r.meeting_booked,
    botScannedOnlyLinkCount: r.bot_scanned_only,
    pageViewCount: r.page_views,
    loadCount: r.loads,
    uniqueVisitorCount: unique,
    persistentUniqueVisitorCount: r.persistent,
    ephemeralPageViewCount: r.ephemeral,
    sessionCount: r.sessions,
    startedSessionCount: r.started_sessions,
    engagedSessionCount: r.engaged_sessions,
    loadsPerUniqueVisitor: unique > 0 ? r.loads / unique : null,
    visitorCountMode: r.ephemeral > 0 ? 'estimated' : 'identified',
    firstOpenedAt: iso(r.first_opened_at),
    lastOpenedAt: iso(r.last_opened_at),
    lastActivityAt: iso(r.last_activity_at),
  };
}

/**
 * Links inserted directly (bulk), each with a consistent engagement state already rolled up:
 * counters, flags, times and the stage that follows from them. `i` varies the state. What link
 * creation writes with a link comes with them (LINK_DERIVED_ROWS).
 */
/**
 * After a modifying CTE `l` that inserted links: their search copies and their campaigns' figures, as
 * link creation writes them in its transaction (migration LinkDerivedWrites; docs/api.md §2.10).
 */
export const LINK_DERIVED_ROWS = `, search AS (
     INSERT INTO custom_link_search (organization_id, custom_link_id, search_text, company_key)
     SELECT organization_id, id, search_text, lower(company) FROM l)
   INSERT INTO campaign_engagement AS ce (organization_id, campaign_id, links, active_links, opened, started, engaged,
     lead_submitted, meeting_clicked, meeting_booked, bot_scanned_only, page_views, loads, persistent_visitors,
     ephemeral_page_views, sessions, started_sessions, engaged_sessions, first_opened_at, last_opened_at, last_activity_at)
   SELECT organization_id, campaign_id, count(*), count(*) FILTER (WHERE active), count(*) FILTER (WHERE stage <> 'not_opened'),
          count(*) FILTER (WHERE stage IN ('started', 'engaged')), count(*) FILTER (WHERE stage = 'engaged'),
          count(first_lead_submitted_at), count(first_meeting_clicked_at), count(first_meeting_booked_at),
          count(*) FILTER (WHERE bot_open_count > 0 AND NOT open_observed), sum(page_view_count), sum(load_count),
          sum(persistent_visitor_count), sum(ephemeral_page_view_count), sum(session_count), sum(started_session_count),
          sum(engaged_session_count), min(first_opened_at), max(last_opened_at), max(last_activity_at)
     FROM l WHERE campaign_id IS NOT NULL GROUP BY organization_id, campaign_id ORDER BY campaign_id
   ON CONFLICT (organization_id, campaign_id) DO UPDATE SET
     links = ce.links + EXCLUDED.links, active_links = ce.active_links + EXCLUDED.active_links, opened = ce.opened + EXCLUDED.opened,
     started = ce.started + EXCLUDED.started, engaged = ce.engaged + EXCLUDED.engaged,
     lead_submitted = ce.lead_submitted + EXCLUDED.lead_submitted, meeting_clicked = ce.meeting_clicked + EXCLUDED.meeting_clicked,
     meeting_booked = ce.meeting_booked + EXCLUDED.meeting_booked, bot_scanned_only = ce.bot_scanned_only + EXCLUDED.bot_scanned_only,
     page_views = ce.page_views + EXCLUDED.page_views, loads = ce.loads + EXCLUDED.loads,
     persistent_visitors = ce.persistent_visitors + EXCLUDED.persistent_visitors,
     ephemeral_page_views = ce.ephemeral_page_views + EXCLUDED.ephemeral_page_views, sessions = ce.sessions + EXCLUDED.sessions,
     started_sessions = ce.started_sessions + EXCLUDED.started_sessions, engaged_sessions = ce.engaged_sessions + EXCLUDED.engaged_sessions,
     first_opened_at = LEAST(ce.first_opened_at, EXCLUDED.first_opened_at),
     last_opened_at = GREATEST(ce.last_opened_at, EXCLUDED.last_opened_at),
     last_activity_at = GREATEST(ce.last_activity_at, EXCLUDED.last_activity_at)`;

export async function insertLinks(
  pool: Pool,
  organizationId: string,
  links: { campaignId: string | null; i: number }[],
): Promise<string[]> {
  const ids = links.map(() => randomUUID());
  await pool.query(
    `WITH l AS (
     INSERT INTO custom_links (organization_id, id, slug, display_name, active, campaign_id, thumbnail_status, stage,
       open_observed, bot_open_count, load_count, page_view_count, persistent_visitor_count, ephemeral_page_view_count,
       session_count, started_session_count, engaged_session_count, first_opened_at, last_opened_at, first_started_at,
       first_engaged_at, first_lead_submitted_at, first_meeting_clicked_at, first_meeting_booked_at,
       last_activity_at, last_activity_type, last_activity_event_id)
     SELECT $1::uuid, l.id, 'agg' || substr(replace(l.id::text, '-', ''), 1, 29), 'Bulk ' || l.i, l.i % 9 <> 0, l.campaign_id, 'provided',
       CASE WHEN k = 0 THEN 'not_opened' WHEN k = 1 THEN 'opened' WHEN k = 2 THEN 'started' ELSE 'engaged' END,
       k > 0, CASE WHEN l.i % 5 = 0 THEN 1 + l.i % 3 ELSE 0 END,
       CASE WHEN k > 0 THEN l.i % 7 ELSE 0 END, CASE WHEN k > 0 THEN l.i % 5 ELSE 0 END,
       CASE WHEN k > 0 THEN l.i % 3 ELSE 0 END, CASE WHEN k > 0 THEN l.i % 2 ELSE 0 END,
       CASE WHEN k > 1 THEN 1 + l.i % 2 ELSE 0 END, CASE WHEN k > 1 THEN 1 ELSE 0 END, CASE WHEN k > 2 THEN 1 ELSE 0 END,
       CASE WHEN k > 0 THEN t0 END, CASE WHEN k > 0 THEN t0 + (l.i % 11) * interval '1 hour' END,
       CASE WHEN k > 1 THEN t0 + interval '5 minutes' END, CASE WHEN k > 2 THEN t0 + interval '9 minutes' END,
       CASE WHEN k > 2 AND l.i % 2 = 0 THEN t0 + interval '12 minutes' END,
       CASE WHEN k > 2 AND l.i % 3 = 0 THEN t0 + interval '13 minutes' END,
       CASE WHEN k > 2 AND l.i % 4 = 0 THEN t0 + interval '14 minutes' END,
       CASE WHEN k > 0 THEN t0 + (l.i % 11) * interval '1 hour' + interval '30 minutes' END,
       CASE WHEN k > 0 THEN 'page_view' END, CASE WHEN k > 0 THEN 'seed-' || l.id END
       FROM jsonb_to_recordset($2::jsonb) AS l(id uuid, campaign_id uuid, i int)
       CROSS JOIN LATERAL (SELECT l.i % 4 AS k, timestamptz '2026-02-01T08:00:00Z' + (l.i * 37 % 400) * interval '1 hour' AS t0) s
     RETURNING *)
     ${LINK_DERIVED_ROWS}`,
    [organizationId, JSON.stringify(links.map((l, n) => ({ id: ids[n], campaign_id: l.campaignId, i: l.i })))],
  );
  return ids;
}
