// Generation: link engagement (visits, then their events).
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { ms } = require('./sql');
const { shareWork } = require('./shared-work');
/** @type {typeof import('../../src/database/migrations/1766800000000-AnalyticsFacets')} */
const { facetsFromHours, AGGREGATE_FACETS } = require(
  path.join(DIST, 'database/migrations/1766800000000-AnalyticsFacets'),
);

const EVENT_CHUNK = 500_000;

/**
 * @typedef {import('pg').Client} Client
 * @typedef {import('./organizations').OrganizationSpec} OrganizationSpec
 */

/**
 * The event offsets (ms after the visit's start) of a human visit, by the types it contains.
 * @param {string} f  The alias of the visit's flags.
 */
const TYPES_OF_VISIT = (
  f,
) => `(CASE WHEN ${f}.has_open THEN '{open}'::text[] ELSE '{}'::text[] END) || array_fill('page_view'::text, ARRAY[${f}.pv])
  || CASE WHEN ${f}.retry THEN '{page_view_retry}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.started THEN '{session_started}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.engaged THEN '{session_engaged}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.lead THEN '{lead_submitted}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.mclick THEN '{meeting_clicked}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.mbook THEN '{meeting_booked}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.ended THEN '{session_ended}'::text[] ELSE '{}'::text[] END`;

const VISIT_COLUMNS =
  'org, v, link_id, at, bot, visitor_id, session_id, types, last_pv, start_off, engaged_off, lead_off, mclick_off, mbook_off, end_off';
const AVERAGE_EVENTS_PER_ACTIVE_VISIT = 2.6;

/**
 * Visits of one organization's links: one per real session that came through a link (its own
 * start, end and outcome), bot scans of bot-only links, then human (and a few bot) visits on a
 * skewed choice of the active links (a few hot ones), enough to reach the --events total.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {string} now
 */
async function planVisits(db, spec, now) {
  // Real sessions that came through a link: open, load(s), then the session's own lifecycle at its own times.
  const real = await db.query(
    `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
     SELECT s.organization_id, row_number() OVER (ORDER BY s.start_time, s.id), s.custom_link_id, s.start_time - f.start_off * interval '1 millisecond', false,
            CASE WHEN s.r_eph < 0.15 THEN NULL ELSE 'vis_' || substr(md5(s.custom_link_id::text || ':0'), 1, 22) END, s.id, ${TYPES_OF_VISIT('f')},
            f.has_open::int + f.pv, f.start_off, f.start_off + least(60000, f.dur / 3), f.start_off + (f.dur * 0.55)::int, f.start_off + (f.dur * 0.75)::int,
            f.start_off + (f.dur * 0.85)::int, f.start_off + f.dur
       FROM (SELECT s.*, random() AS r_eph, random() AS r_open, random() AS r_pv, random() AS r_retry, random() AS r_eng, random() AS r_lead, random() AS r_mc
               FROM bench_gen.sessions_stage s WHERE s.organization_id = $1 AND s.custom_link_id IS NOT NULL) s
      CROSS JOIN LATERAL (
        SELECT s.r_open < 0.9 AS has_open, CASE WHEN s.r_pv < 0.7 THEN 1 WHEN s.r_pv < 0.92 THEN 2 ELSE 3 END AS pv, s.r_retry < 0.02 AS retry, true AS started,
               (extract(epoch FROM coalesce(s.end_time - s.start_time, interval '10 minutes')) * 1000)::int AS dur,
               s.r_lead < CASE WHEN s.qualification_status = 'qualified' THEN 0.25 ELSE 0.05 END AS lead,
               s.booked_status = 'booked' OR s.r_mc < 0.06 AS mclick, s.booked_status IS NOT DISTINCT FROM 'booked' AS mbook, s.end_time IS NOT NULL AS ended OFFSET 0) f0
      CROSS JOIN LATERAL (SELECT f0.*, 6500 + f0.pv * 40000 AS start_off, f0.dur > 90000 AND (s.engagement_level <> 'low' OR s.r_eng < 0.5) AS engaged OFFSET 0) f`,
    [spec.id],
  );
  const realVisits = real.rowCount ?? 0;
  // How many bot-only and active links there are.
  const {
    rows: [counts],
  } = await db.query(
    `SELECT count(*) FILTER (WHERE activity = 'bot')::int AS bot_links, count(*) FILTER (WHERE activity = 'active')::int AS active_links
       FROM bench_gen.links_plan WHERE org = $1`,
    [spec.id],
  );
  const botVisits = Math.round(counts.bot_links * 1.4);
  if (botVisits > 0) {
    // Mail-gateway scans of bot-only links shortly after they were sent: an open, sometimes a preview load.
    await db.query(
      `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
       WITH x AS MATERIALIZED (SELECT i, random() AS r_pick, random() AS r_t, random() AS r_pv FROM generate_series(1, $3::int) AS i)
       SELECT l.org, $2 + x.i, l.id, ${ms(`l.created_at + (5 + 300 * x.r_t) * interval '1 second'`)}, true, NULL, NULL,
              CASE WHEN x.r_pv < 0.3 THEN '{open,page_view}'::text[] ELSE '{open}'::text[] END, 2, 0, 0, 0, 0, 0, 0
         FROM x
         JOIN bench_gen.links_plan l ON l.org = $1 AND l.activity = 'bot'
                                    AND l.activity_rank = CASE WHEN x.i <= $4 THEN x.i ELSE 1 + floor(x.r_pick * $4)::int END`,
      [spec.id, realVisits, botVisits, counts.bot_links],
    );
  }
  // Active-link visits until the planned events reach --events (the last visits are cut when events are written).
  let next = realVisits + botVisits;
  for (
    let planned = await plannedEvents(db, spec.id);
    counts.active_links > 0 && planned < spec.events;
    planned = await plannedEvents(db, spec.id)
  ) {
    const count = Math.ceil(((spec.events - planned) / AVERAGE_EVENTS_PER_ACTIVE_VISIT) * 1.05) + 20;
    await addActiveVisits(db, spec, next, count, counts.active_links, now);
    next += count;
  }
}

/**
 * @param {Client} db
 * @param {string} org
 */
const plannedEvents = async (db, org) =>
  Number(
    (await db.query(`SELECT coalesce(sum(cardinality(types)), 0) AS n FROM bench_gen.visits_raw WHERE org = $1`, [org]))
      .rows[0].n,
  );

/**
 * `count` visits (numbered after firstV) of active links: link rank ~ A·u^2.5 (a few hot links), time skewed towards the link's first days; 2 % are bot scans.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {number} firstV
 * @param {number} count
 * @param {number} activeLinks
 * @param {string} now
 */
async function addActiveVisits(db, spec, firstV, count, activeLinks, now) {
  await db.query(
    `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
     WITH x AS MATERIALIZED (SELECT i, gen_random_uuid() AS sid, random() AS r_pick, random() AS r_t, random() AS r_eph, random() AS r_vis, random() AS r_bot,
                    random() AS r_open, random() AS r_pv, random() AS r_retry, random() AS r_sess, random() AS r_st, random() AS r_en, random() AS r_ld,
                    random() AS r_mc, random() AS r_end, random() AS r_d1, random() AS r_d2, random() AS r_d3, random() AS r_d4
               FROM generate_series(1, $3::int) AS i)
     SELECT l.org, $2 + x.i, l.id,
            ${ms(`l.created_at + greatest(interval '0', $5::timestamptz - interval '2 hours' - l.created_at) * power(x.r_t, 3)`)}, f.bot,
            CASE WHEN f.bot OR x.r_eph < 0.15 THEN NULL ELSE 'vis_' || substr(md5(l.id::text || ':' || floor(power(x.r_vis, 2.2) * 40)::int), 1, 22) END,
            CASE WHEN f.session THEN x.sid END, CASE WHEN f.bot THEN '{open}'::text[] ELSE ${TYPES_OF_VISIT('f')} END,
            f.has_open::int + f.pv, f.start_off, f.engaged_off, f.lead_off, f.mclick_off, f.mbook_off,
            greatest(f.engaged_off, f.lead_off, f.mbook_off) + 30000 + floor(x.r_d4 * 400000)::int
       FROM x
       JOIN bench_gen.links_plan l ON l.org = $1 AND l.activity = 'active' AND l.activity_rank = 1 + floor($4 * power(x.r_pick, 2.5))::int
      CROSS JOIN LATERAL (
        SELECT x.r_bot < 0.02 AS bot, x.r_open < 0.88 AS has_open, x.r_retry < 0.02 AS retry, x.r_sess < 0.05 AS session,
               CASE WHEN x.r_pv < 0.62 THEN 1 WHEN x.r_pv < 0.87 THEN 2 WHEN x.r_pv < 0.95 THEN 3 ELSE 4 + floor(x.r_d1 * 3)::int END AS pv OFFSET 0) f0
      CROSS JOIN LATERAL (
        SELECT f0.*, f0.session AND x.r_st < 0.97 AS started, f0.session AND x.r_en < 0.55 AS engaged, f0.session AND x.r_ld < 0.09 AS lead,
               f0.session AND x.r_mc < 0.12 AS mclick, f0.session AND x.r_mc < 0.054 AS mbook, f0.session AND x.r_end < 0.75 AS ended,
               6500 + f0.pv * 40000 AS start_off, 66500 + f0.pv * 40000 + floor(x.r_d1 * 180000)::int AS engaged_off,
               126500 + f0.pv * 40000 + floor(x.r_d1 * 180000)::int + floor(x.r_d2 * 120000)::int AS lead_off,
               206500 + f0.pv * 40000 + floor(x.r_d3 * 300000)::int AS mclick_off,
               251500 + f0.pv * 40000 + floor(x.r_d3 * 300000)::int + floor(x.r_d2 * 75000)::int AS mbook_off OFFSET 0) f`,
    [spec.id, firstV, count, activeLinks, now],
  );
}

/**
 * Visits with the number of events before them in their organization (event ids and the --events cut).
 * @param {Client} db
 */
async function numberVisits(db) {
  // Running event count per organization, in visit order.
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.visits AS
     SELECT r.*, (sum(cardinality(r.types)) OVER (PARTITION BY r.org ORDER BY r.v) - cardinality(r.types))::bigint AS before FROM bench_gen.visits_raw r`,
  );
  await db.query(`CREATE INDEX ON bench_gen.visits (org, v)`);
}

/**
 * One organization's link events: its visits in ranges of ~500k events each (one statement each),
 * cut at exactly --events.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 */
async function insertEvents(db, spec) {
  const { rows: chunks } = await db.query(
    `SELECT min(v) AS lo, max(v) AS hi FROM bench_gen.visits WHERE org = $1 AND before < $2 GROUP BY before / $3 ORDER BY 1`,
    [spec.id, spec.events, EVENT_CHUNK],
  );
  for (const { lo, hi } of chunks) await insertEventChunk(db, spec, lo, hi);
}

/**
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {number} lo
 * @param {number} hi
 */
async function insertEventChunk(db, spec, lo, hi) {
  const context = eventContext('hx.h');
  // Events of visits lo..hi: ids 'ev-' + zero-padded number; page views carry a page view id, visit
  // events the visitor and session. Each with its context (countries, devices, referrers, UTM) as it
  // is inserted: an UPDATE afterwards rewrote every row of the log and its indexes.
  await db.query(
    `INSERT INTO link_events (organization_id, event_id, custom_link_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, received_at, batch_id,
                               ${context.map(([column]) => column).join(', ')})
       SELECT ev.organization_id, ev.event_id, ev.custom_link_id, ev.type, ev.occurred_at, ev.page_view_id, ev.visitor_id, ev.session_id, ev.bot,
              ev.received_at, ev.batch_id,
              ${context.map(([, expression]) => expression).join(', ')}
         FROM (
         SELECT v.org AS organization_id, 'ev-' || lpad((v.before + e.ord)::text, 9, '0') AS event_id, v.link_id AS custom_link_id,
                CASE WHEN e.type = 'page_view_retry' THEN 'page_view' ELSE e.type END AS type, o.at AS occurred_at,
                CASE WHEN e.type <> 'open' THEN 'pv_' || substr(md5(v.org::text || ':' || v.v || ':' ||
                       CASE WHEN e.type = 'page_view' THEN e.ord WHEN e.type = 'page_view_retry' THEN e.ord - 1 ELSE v.last_pv END), 1, 24) END AS page_view_id,
                CASE WHEN e.type <> 'open' THEN v.visitor_id END AS visitor_id, CASE WHEN e.type <> 'open' THEN v.session_id END AS session_id, v.bot,
                o.at + (200 + (v.v * 7 + e.ord * 131) % 2800) * interval '1 millisecond' AS received_at,
                md5(v.org::text || date_trunc('hour', o.at AT TIME ZONE 'UTC')::text)::uuid AS batch_id, v.before + e.ord AS seq
           FROM bench_gen.visits v
          CROSS JOIN LATERAL unnest(v.types) WITH ORDINALITY AS e(type, ord)
          CROSS JOIN LATERAL (
            SELECT v.at + CASE e.type WHEN 'open' THEN 0 WHEN 'page_view' THEN 1500 + (e.ord - 1) * 40000 WHEN 'page_view_retry' THEN 4500 + (e.ord - 2) * 40000
                               WHEN 'session_started' THEN v.start_off WHEN 'session_engaged' THEN v.engaged_off WHEN 'lead_submitted' THEN v.lead_off
                               WHEN 'meeting_clicked' THEN v.mclick_off WHEN 'meeting_booked' THEN v.mbook_off ELSE v.end_off END * interval '1 millisecond' AS at OFFSET 0) o
          WHERE v.org = $1 AND v.v BETWEEN $2 AND $3 AND v.before + e.ord <= $4
          OFFSET 0) ev
        CROSS JOIN LATERAL (SELECT ${VISITOR_HASH} AS h OFFSET 0) hx
        ORDER BY ev.seq`,
    [spec.id, lo, hi, spec.events],
  );
}

/**
 * Every eventId accepted once ever (the log's dedup keys); the events are folded (the rollups follow).
 * @param {Client} db
 */
async function insertEventIds(db) {
  await db.query(
    `INSERT INTO link_event_ids (organization_id, event_id, received_at) SELECT organization_id, event_id, received_at FROM link_events`,
  );
}

/**
 * The visitor's hash (else one session's, page view's or event's), over the event's own columns: the
 * events of one visitor of a link share their context, as one browser's do.
 */
const VISITOR_HASH = `decode(md5(custom_link_id::text || ':' || coalesce(visitor_id, session_id::text, page_view_id, event_id)), 'hex')`;

/**
 * A CASE over byte n (0..255) of a hash: each [value, upTo) in order, the last value for the rest.
 * @param {string} hash  an SQL bytea expression
 * @param {number} n
 * @param {[string | null, number][]} shares  value and the byte it runs up to (exclusive)
 * @param {string | null} rest
 */
const skewed = (hash, n, shares, rest) =>
  `CASE ${shares.map(([value, upTo]) => `WHEN get_byte(${hash}, ${n}) < ${upTo} THEN ${value === null ? 'NULL' : `'${value}'`}`).join(' ')} ELSE ${rest === null ? 'NULL' : `'${rest}'`} END`;

/**
 * Each event's context in a realistic skew, over bytes of its visitor's hash (VISITOR_HASH) and its
 * bot column: countries, devices, referrers and UTM. Bots read as devices of type other, with no
 * browser or OS (issue 33 point 3).
 * @param {string} hash  VISITOR_HASH, or a column holding it (computed once per row: each WHEN of a
 *   CASE evaluates its own expression, and the md5 per byte was most of the event inserts' time)
 * @returns {[column: string, expression: string][]}
 */
function eventContext(hash) {
  const country = skewed(
    hash,
    0,
    [
      ['US', 115],
      ['GB', 141],
      ['DE', 161],
      ['FR', 176],
      ['CA', 189],
      ['IN', 202],
      ['AU', 212],
      ['NL', 220],
      ['BR', 227],
      ['ES', 233],
      ['SE', 238],
      ['JP', 243],
      ['SG', 247],
    ],
    null,
  );
  const device = skewed(
    hash,
    1,
    [
      ['desktop', 174],
      ['mobile', 243],
      ['tablet', 253],
    ],
    'other',
  );
  return [
    ['country', country],
    ['device_type', `CASE WHEN bot THEN 'other' ELSE ${device} END`],
    [
      'browser',
      `CASE WHEN bot THEN NULL ELSE ${skewed(
        hash,
        3,
        [
          ['Chrome', 160],
          ['Safari', 210],
          ['Edge', 235],
          ['Firefox', 250],
        ],
        'Samsung Internet',
      )} END`,
    ],
    [
      'os',
      `CASE WHEN bot THEN NULL WHEN get_byte(${hash}, 1) < 174 THEN ${skewed(
        hash,
        2,
        [
          ['Windows', 150],
          ['macOS', 235],
        ],
        'Linux',
      )}
                 WHEN get_byte(${hash}, 1) < 253 THEN ${skewed(hash, 2, [['iOS', 150]], 'Android')} END`,
    ],
    [
      'referrer_domain',
      skewed(
        hash,
        4,
        [
          [null, 140],
          ['linkedin.com', 178],
          ['google.com', 204],
          ['outlook.com', 224],
          ['slack.com', 237],
          ['hubspot.com', 245],
          ['salesforce.com', 251],
        ],
        'bing.com',
      ),
    ],
    [
      'utm_source',
      `CASE WHEN get_byte(${hash}, 5) >= 154 THEN ${skewed(
        hash,
        6,
        [
          ['outbound', 100],
          ['linkedin', 160],
          ['newsletter', 210],
          ['google', 240],
        ],
        'g2',
      )} END`,
    ],
    [
      'utm_medium',
      `CASE WHEN get_byte(${hash}, 5) >= 154 THEN ${skewed(
        hash,
        6,
        [
          ['email', 100],
          ['social', 160],
          ['email', 210],
          ['cpc', 240],
        ],
        'referral',
      )} END`,
    ],
    [
      'utm_campaign',
      `CASE WHEN get_byte(${hash}, 5) >= 154 THEN ${skewed(
        hash,
        7,
        [
          ['q3-launch', 90],
          ['q4-pipeline', 170],
          ['webinar-nov', 220],
        ],
        'abm-tier1',
      )} END`,
    ],
  ];
}

/**
 * A dataset built before its events had context gets it: every event's, then the aggregates.
 * @param {Client} db
 * @param {string} org
 */
async function addEventContext(db, org) {
  await db.query(
    `UPDATE link_events SET ${eventContext(VISITOR_HASH)
      .map(([column, expression]) => `${column} = ${expression}`)
      .join(', ')} WHERE organization_id = $1`,
    [org],
  );
  await aggregateEventHours(db, org);
  await shareWork([db], facetTasks(org));
}

/**
 * The hourly aggregates the fold keeps, from the log (as migration EventLog computes them for
 * carried events), of one organization or (null) of all.
 * @param {Client} db
 * @param {string | null} org
 */
async function aggregateEventHours(db, org) {
  const [where, params] = org === null ? ['', []] : ['WHERE organization_id = $1', [org]];
  await db.query(`DELETE FROM link_event_hours ${where}`, params);
  await db.query(
    `INSERT INTO link_event_hours (organization_id, custom_link_id, hour, type, bot, internal, country, device_type, browser, os,
                                   referrer_domain, utm_source, utm_medium, utm_campaign, events)
     SELECT organization_id, custom_link_id, date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', type, bot,
            internal_reason IS NOT NULL, country, device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, count(*)
       FROM link_events ${where} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14`,
    params,
  );
}

/**
 * The analytics facets of the hourly aggregates of one organization or (null) of all, as tasks
 * (shared-work.js): each facet as the migration AnalyticsFacets computes it, its rows deleted first.
 * The account domains come first: a value per link, they are most of the rows.
 * @param {string | null} org
 * @returns {import('./shared-work').Task[]}
 */
function facetTasks(org) {
  const largestFirst = [...AGGREGATE_FACETS].sort(
    (x, y) => Number(y === 'account_domain') - Number(x === 'account_domain'),
  );
  const [organization, params] = org === null ? [null, []] : ['$1', [org]];
  const ofOrganization = organization === null ? '' : `AND organization_id = ${organization}`;
  return largestFirst.map((facet) =>
    /** @param {Client} db */
    async (db) => {
      for (const table of ['event_facet_hours', 'event_facet_days'])
        await db.query(`DELETE FROM ${table} WHERE facet = '${facet}' ${ofOrganization}`, params);
      for (const statement of facetsFromHours(organization, [facet])) await db.query(statement, params);
    },
  );
}

/**
 * A dataset built before its events had context gets it (and its hourly aggregates again), for
 * every organization; a no-op once they have it.
 * @param {Client} db
 * @returns {Promise<boolean>} whether it added context
 */
async function ensureEventContext(db) {
  const missing = await db.query(
    `SELECT o.id FROM organizations o WHERE EXISTS (SELECT 1 FROM link_events e WHERE e.organization_id = o.id AND e.device_type IS NULL)`,
  );
  for (const row of missing.rows) await addEventContext(db, row.id);
  if (missing.rows.length > 0)
    await db.query(`VACUUM ANALYZE link_events, link_event_hours, event_facet_hours, event_facet_days`);
  return missing.rows.length > 0;
}

/**
 * The log's monthly partitions (UTC) from `from` through this month, as the migration EventLog makes
 * them, so that the generated history lands in its months rather than the default partition.
 * @param {Client} db
 * @param {string} from  ISO timestamp of the earliest event
 */
async function createLogPartitions(db, from) {
  await db.query(
    `DO $$
     DECLARE month timestamptz;
     BEGIN
       FOR month IN SELECT generate_series(date_trunc('month', timestamptz '${from}' AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                                           date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', interval '1 month')
       LOOP
         EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF link_events FOR VALUES FROM (%L) TO (%L)',
           'link_events_' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM'), month, month + interval '1 month');
       END LOOP;
     END $$`,
  );
}

module.exports = {
  ensureEventContext,
  facetTasks,
  planVisits,
  numberVisits,
  insertEvents,
  insertEventIds,
  aggregateEventHours,
  createLogPartitions,
};
