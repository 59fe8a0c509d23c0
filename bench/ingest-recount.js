#!/usr/bin/env node
// After an ingestion run: are the rollups exact? Every given link's rollup columns, distinct values
// and session references are recounted from its stored events in one pass (the service's compiled
// rules: statsOf / storedFormOf / stageOf, and what EventsService writes for the whole event set at
// once), and each campaign of those links is recounted from its links (docs/api.md §6.5). Batches,
// groups of batches, concurrency and retries must all give what one pass over the events gives.
//
//   node bench/ingest-recount.js [--manifest bench/.dataset.json]   (the manifest's sample links)
// Used by bench/run.js after the event ingestion scenario. Needs `npm run build`. Exit 1 on a mismatch.
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { DIST } = require('./data/constants');
const {
  compareColumns: compare,
  compareEngagementWrites,
  eventOfRow,
  linkRollupColumns,
  whatTheFoldWrites,
} = require('./data/verify-columns');

const LINKS_PER_QUERY = 100;
const MAX_REPORTED = 20;

/**
 * One chunk of links: rollup columns, distinct values and session references against the recount.
 * @param {Client} db
 * @param {string} organizationId
 * @param {string[]} linkIds
 * @param {string[]} mismatches
 */
async function recountLinks(db, organizationId, linkIds, mismatches) {
  /** @type {typeof import('../src/modules/engagement/rules/engagement-rollup')} */
  const rules = require(path.join(DIST, 'modules/engagement/rules/engagement-rollup'));
  /** @type {typeof import('../src/modules/engagement/rules/bot-detection')} */
  const { BOT_REASONS } = require(path.join(DIST, 'modules/engagement/rules/bot-detection'));
  const params = [organizationId, linkIds];
  // One snapshot for the four reads: a write landing between them would look like a mismatch.
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const links = await db.query(
    'SELECT * FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[])',
    params,
  );
  const events = await db.query(
    `SELECT custom_link_id, event_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, bot_reason, internal_reason FROM link_events
                                  WHERE organization_id = $1 AND custom_link_id = ANY($2::uuid[])`,
    params,
  );
  const distinct = await db.query(
    'SELECT custom_link_id, kind, value FROM link_distinct_values WHERE organization_id = $1 AND custom_link_id = ANY($2::uuid[])',
    params,
  );
  const sessions = await db.query(
    'SELECT * FROM link_sessions WHERE organization_id = $1 AND custom_link_id = ANY($2::uuid[])',
    params,
  );
  await db.query('COMMIT');
  if (links.rows.length !== linkIds.length)
    mismatches.push(`links: ${linkIds.length} given, ${links.rows.length} found`);
  /** @type {Map<string, import('./data/verify-columns').NewEvent[]>} */
  const eventsOf = new Map(linkIds.map((id) => [id, []]));
  /** @param {string} id */
  const eventsOfLink = (id) => {
    const list = eventsOf.get(id);
    if (!list) throw new Error(`link ${id} was not asked for`);
    return list;
  };
  for (const e of events.rows) eventsOfLink(e.custom_link_id).push(eventOfRow(e));
  for (const row of links.rows) {
    const stats = rules.statsOf(eventsOfLink(row.id));
    compare(mismatches, `link ${row.id}`, linkRollupColumns(stats, rules), row);
    compare(
      mismatches,
      `link ${row.id} bot opens`,
      Object.fromEntries(BOT_REASONS.map((r) => [r, stats.botOpens[r]])),
      Object.fromEntries(BOT_REASONS.map((r) => [r, row.bot_opens[r] ?? 0])),
    );
  }
  const written = await whatTheFoldWrites(organizationId, [...eventsOf.values()].flat());
  const expected = compareEngagementWrites(
    mismatches,
    `organization ${organizationId}`,
    written,
    distinct.rows,
    sessions.rows,
  );
  return { events: events.rows.length, ...expected };
}

/**
 * docs/api.md §6.5: each campaign's figures over the links filed in it, against its campaign_engagement row.
 * @param {Client} db
 * @param {string} organizationId
 * @param {string[]} linkIds
 * @param {string[]} mismatches
 */
async function recountCampaigns(db, organizationId, linkIds, mismatches) {
  const { rows } = await db.query(
    `WITH campaigns AS (SELECT DISTINCT campaign_id FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND campaign_id IS NOT NULL),
          recount AS (
            SELECT l.campaign_id, count(*) AS links, count(*) FILTER (WHERE l.active) AS active_links,
                   count(*) FILTER (WHERE l.stage <> 'not_opened') AS opened, count(*) FILTER (WHERE l.stage IN ('started', 'engaged')) AS started,
                   count(*) FILTER (WHERE l.stage = 'engaged') AS engaged, count(l.first_lead_submitted_at) AS lead_submitted,
                   count(l.first_meeting_clicked_at) AS meeting_clicked, count(l.first_meeting_booked_at) AS meeting_booked,
                   count(*) FILTER (WHERE l.bot_open_count > 0 AND NOT l.open_observed) AS bot_scanned_only,
                   sum(l.page_view_count) AS page_views, sum(l.load_count) AS loads, sum(l.persistent_visitor_count) AS persistent_visitors,
                   sum(l.ephemeral_page_view_count) AS ephemeral_page_views, sum(l.session_count) AS sessions,
                   sum(l.started_session_count) AS started_sessions, sum(l.engaged_session_count) AS engaged_sessions,
                   min(l.first_opened_at) AS first_opened_at, max(l.last_opened_at) AS last_opened_at, max(l.last_activity_at) AS last_activity_at
              FROM custom_links l JOIN campaigns c ON c.campaign_id = l.campaign_id WHERE l.organization_id = $1 GROUP BY l.campaign_id)
     SELECT to_jsonb(r) AS recount, to_jsonb(ce) AS stored FROM recount r
       LEFT JOIN campaign_engagement ce ON ce.organization_id = $1 AND ce.campaign_id = r.campaign_id`,
    [organizationId, linkIds],
  );
  for (const { recount, stored } of rows) {
    if (!stored) mismatches.push(`campaign ${recount.campaign_id}: no campaign_engagement row`);
    else
      compare(
        mismatches,
        `campaign ${recount.campaign_id}`,
        Object.fromEntries(Object.entries(recount).filter(([k]) => k !== 'campaign_id')),
        stored,
      );
  }
  return rows.length;
}

/**
 * Recounts `linkIds` of the organization and their campaigns; `mismatches` lists every difference.
 * @param {string} databaseUrl
 * @param {string} organizationId
 * @param {string[]} linkIds
 */
async function recountRollups(databaseUrl, organizationId, linkIds) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  /** @type {string[]} */
  const mismatches = [];
  const totals = { links: linkIds.length, events: 0, distinct: 0, sessions: 0, campaigns: 0 };
  const started = Date.now();
  try {
    for (let i = 0; i < linkIds.length; i += LINKS_PER_QUERY) {
      const counted = await recountLinks(db, organizationId, linkIds.slice(i, i + LINKS_PER_QUERY), mismatches);
      for (const key of /** @type {const} */ (['events', 'distinct', 'sessions'])) totals[key] += counted[key];
    }
    totals.campaigns = await recountCampaigns(db, organizationId, linkIds, mismatches);
  } finally {
    await db.end();
  }
  return {
    ...totals,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    mismatchCount: mismatches.length,
    mismatches: mismatches.slice(0, MAX_REPORTED),
  };
}

/**
 * Waits until the fold has caught up with the organization's appended events (no batch waits);
 * returns how long that took. Throws past `timeoutMs`.
 * @param {string} databaseUrl
 * @param {string} organizationId
 * @param {number} timeoutMs
 */
async function foldCaughtUp(databaseUrl, organizationId, timeoutMs) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS waiting FROM link_event_batches WHERE organization_id = $1`,
        [organizationId],
      );
      if (rows[0].waiting === 0) return Date.now() - started;
      if (Date.now() - started > timeoutMs) throw new Error(`the fold did not catch up within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await db.end();
  }
}

/**
 * Samples the fold's lag every 200 ms (now − the oldest appended batch of the organization not
 * folded yet, 0 when none waits) and PostgreSQL's CPU, until `stop()`: lag p50 / p99 / max in ms,
 * PostgreSQL CPU seconds and the seconds watched.
 * @param {string} databaseUrl
 * @param {string} organizationId
 */
function watchFold(databaseUrl, organizationId) {
  const { watchPostgresCpu } = require('./run/processes');
  const db = new Client({ connectionString: databaseUrl });
  const connected = db.connect();
  const cpu = watchPostgresCpu();
  const started = Date.now();
  /** @type {number[]} */
  const lags = [];
  let stopped = false;
  const sampling = (async () => {
    await connected;
    while (!stopped) {
      const { rows } = await db.query(
        `SELECT coalesce(extract(epoch FROM clock_timestamp() - min(received_at)) * 1000, 0)::float8 AS lag_ms
           FROM link_event_batches WHERE organization_id = $1`,
        [organizationId],
      );
      lags.push(rows[0].lag_ms);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      const postgresCpuS = cpu.stop();
      const seconds = (Date.now() - started) / 1000;
      await sampling;
      await db.end();
      const sorted = lags.sort((a, b) => a - b);
      const at = (/** @type {number} */ p) =>
        sorted.length === 0 ? null : Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]);
      return {
        fold_lag_p50_ms: at(50),
        fold_lag_p99_ms: at(99),
        fold_lag_max_ms: at(100),
        postgres_cpu_s: postgresCpuS,
        load_seconds: Math.round(seconds * 10) / 10,
      };
    },
  };
}

module.exports = { recountRollups, foldCaughtUp, watchFold };

if (require.main === module) {
  const at = process.argv.indexOf('--manifest');
  /** @type {import('./data/manifest').Manifest} */
  const manifest = JSON.parse(
    readFileSync(at > 0 ? process.argv[at + 1] : path.join(__dirname, '.dataset.json'), 'utf8'),
  );
  foldCaughtUp(manifest.databaseUrl, manifest.organizationId, 300_000)
    .then(() => recountRollups(manifest.databaseUrl, manifest.organizationId, manifest.sample.linkIds))
    .then(
      (result) => {
        console.log(JSON.stringify(result, null, 2));
        process.exit(result.mismatchCount === 0 ? 0 : 1);
      },
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
}
