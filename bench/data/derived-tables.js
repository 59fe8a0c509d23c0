// The tables derived from sessions and custom_links (the session counts and their deltas, the email search, the
// campaign figures, the link search copy), filled set-based after the bulk load instead of row by row.
//
// The service keeps them on each write (row-level triggers, or the service itself once the triggers'
// work moves there). Row by row, a 200,000-link load paid a campaign upsert and a search-copy insert
// with its foreign-key check per link, planned before custom_links had statistics (7-29 ms a link).
// So the build suspends the user triggers of both tables for the load (`DISABLE TRIGGER USER` keeps
// the foreign-key triggers, which are internal), recounts the four tables from the base tables once
// they are analyzed, and enables the triggers again. The result is the same whether the triggers
// still exist or the service writes these tables: either way nothing wrote them during the load, and
// the verification compares each with the same recount.
// The touch_updated_at triggers are suspended too: the only UPDATE of a loaded table (the link
// rollups) sets updated_at itself, as that trigger would have.
'use strict';
const { VISIBLE } = require('./sql');

/** The tables whose user triggers are off during the load. */
const LOADED = ['sessions', 'custom_links'];

const FACETS = 'effective_qualification_status, buying_intent, booked_status';
const EMAIL_COLUMNS = `organization_id, id, start_time, email_key, ${FACETS}`;

/** Each link's contribution to its campaign's figures (docs/api.md §2.10), as the service counts it. */
const CAMPAIGN_FIGURES = [
  ['links', 'count(*)'],
  ['active_links', 'count(*) FILTER (WHERE l.active)'],
  ['opened', `count(*) FILTER (WHERE l.stage <> 'not_opened')`],
  ['started', `count(*) FILTER (WHERE l.stage IN ('started', 'engaged'))`],
  ['engaged', `count(*) FILTER (WHERE l.stage = 'engaged')`],
  ['lead_submitted', 'count(l.first_lead_submitted_at)'],
  ['meeting_clicked', 'count(l.first_meeting_clicked_at)'],
  ['meeting_booked', 'count(l.first_meeting_booked_at)'],
  ['bot_scanned_only', 'count(*) FILTER (WHERE l.bot_open_count > 0 AND NOT l.open_observed)'],
  ['page_views', 'coalesce(sum(l.page_view_count), 0)'],
  ['loads', 'coalesce(sum(l.load_count), 0)'],
  ['persistent_visitors', 'coalesce(sum(l.persistent_visitor_count), 0)'],
  ['ephemeral_page_views', 'coalesce(sum(l.ephemeral_page_view_count), 0)'],
  ['sessions', 'coalesce(sum(l.session_count), 0)'],
  ['started_sessions', 'coalesce(sum(l.started_session_count), 0)'],
  ['engaged_sessions', 'coalesce(sum(l.engaged_session_count), 0)'],
  ['first_opened_at', 'min(l.first_opened_at)'],
  ['last_opened_at', 'max(l.last_opened_at)'],
  ['last_activity_at', 'max(l.last_activity_at)'],
];

/**
 * Per table: its columns and the recount of its rows from the base tables (`emptied`: the tables
 * emptied before it is filled). The session counts (per month, day and hour, and the day and hour totals) are written compacted, as compact_session_counts
 * leaves them (no pending deltas); what they hold is the net sum of both tables.
 * @type {{ table: string, columns: string, recount: string, emptied?: string[], stored?: string }[]}
 */
const DERIVED = [
  {
    table: 'session_counts',
    emptied: ['session_counts', 'session_count_deltas'],
    columns: `organization_id, month, ${FACETS}, sessions`,
    recount: `SELECT organization_id, date_trunc('month', start_time AT TIME ZONE 'UTC'), ${FACETS}, count(*)
                FROM sessions WHERE ${VISIBLE} GROUP BY 1, 2, 3, 4, 5`,
    stored: `SELECT organization_id, month, ${FACETS}, sum(sessions)
               FROM (SELECT organization_id, month, ${FACETS}, sessions FROM session_counts
                     UNION ALL SELECT organization_id, month, ${FACETS}, sessions FROM session_count_deltas) c
              GROUP BY 1, 2, 3, 4, 5 HAVING sum(sessions) <> 0`,
  },
  ...['day', 'hour'].map((unit) => ({
    table: `session_${unit}_counts`,
    columns: `organization_id, ${unit}, ${FACETS}, sessions`,
    recount: `SELECT organization_id, date_trunc('${unit}', start_time AT TIME ZONE 'UTC'), ${FACETS}, count(*)
                FROM sessions WHERE ${VISIBLE} GROUP BY 1, 2, 3, 4, 5`,
    stored: `SELECT organization_id, ${unit}, ${FACETS}, sum(sessions)
               FROM (SELECT organization_id, ${unit}, ${FACETS}, sessions FROM session_${unit}_counts
                     UNION ALL SELECT organization_id, date_trunc('${unit}', hour), ${FACETS}, sessions FROM session_count_deltas
                                WHERE hour IS NOT NULL) c
              GROUP BY 1, 2, 3, 4, 5 HAVING sum(sessions) <> 0`,
  })),
  ...['day', 'hour'].map((unit) => ({
    table: `session_${unit}_totals`,
    columns: `organization_id, ${unit}, sessions`,
    recount: `SELECT organization_id, date_trunc('${unit}', start_time AT TIME ZONE 'UTC'), count(*)
                FROM sessions WHERE ${VISIBLE} GROUP BY 1, 2`,
    stored: `SELECT organization_id, ${unit}, sum(sessions)
               FROM (SELECT organization_id, ${unit}, sessions FROM session_${unit}_totals
                     UNION ALL SELECT organization_id, date_trunc('${unit}', hour), sessions FROM session_count_deltas
                                WHERE hour IS NOT NULL) c
              GROUP BY 1, 2 HAVING sum(sessions) <> 0`,
  })),
  {
    table: 'session_emails',
    columns: EMAIL_COLUMNS,
    recount: `SELECT ${EMAIL_COLUMNS} FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL`,
  },
  {
    table: 'campaign_engagement',
    columns: `organization_id, campaign_id, ${CAMPAIGN_FIGURES.map(([column]) => column).join(', ')}`,
    recount: `SELECT l.organization_id, l.campaign_id, ${CAMPAIGN_FIGURES.map(([, value]) => value).join(', ')}
                FROM custom_links l JOIN campaigns c ON c.organization_id = l.organization_id AND c.id = l.campaign_id
               GROUP BY l.organization_id, l.campaign_id`,
  },
  {
    table: 'custom_link_search',
    columns: 'organization_id, custom_link_id, search_text, company_key',
    recount: `SELECT organization_id, id, search_text, lower(company) FROM custom_links`,
  },
];

/**
 * Before the load: the user triggers of sessions and custom_links off.
 * @param {import('pg').Client} db
 */
async function suspendTriggers(db) {
  for (const table of LOADED) await db.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
}

/**
 * After the load: the base tables analyzed (the foreign-key checks of the inserts below are planned
 * with statistics), the derived tables emptied and recounted, the triggers on again.
 * @param {import('pg').Client} db
 */
async function rebuildDerivedTables(db) {
  await db.query(`ANALYZE sessions, custom_links, campaigns`);
  await db.query(`TRUNCATE ${DERIVED.flatMap((d) => d.emptied ?? [d.table]).join(', ')}`);
  for (const { table, columns, recount } of DERIVED) await db.query(`INSERT INTO ${table} (${columns}) ${recount}`);
  for (const table of LOADED) await db.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
}

/**
 * Rows of each derived table that its recount lacks, and rows of the recount the table lacks.
 * @param {import('pg').Client} db
 * @param {string[]} failures
 */
async function verifyDerivedTables(db, failures) {
  for (const { table, columns, recount, stored } of DERIVED) {
    const held = stored ?? `SELECT ${columns} FROM ${table}`;
    const {
      rows: [{ extra, missing }],
    } = await db.query(
      `SELECT (SELECT count(*) FROM (${held} EXCEPT ALL ${recount}) x) AS extra,
              (SELECT count(*) FROM (${recount} EXCEPT ALL ${held}) x) AS missing`,
    );
    if (Number(extra) !== 0 || Number(missing) !== 0)
      failures.push(`${table}: ${extra} rows the recount lacks, ${missing} recounted rows it lacks`);
  }
  const {
    rows: [{ disabled }],
  } = await db.query(
    `SELECT count(*) AS disabled FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D' AND tgrelid = ANY($1::regclass[])`,
    [LOADED],
  );
  if (Number(disabled) !== 0) failures.push(`${disabled} triggers of ${LOADED.join(', ')} still disabled`);
}

module.exports = { DERIVED, suspendTriggers, rebuildDerivedTables, verifyDerivedTables };
