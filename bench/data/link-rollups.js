// Derivation: link rollups, distinct values and session references (engagement-rollup.ts,
// engagement.repository.ts, events.service.ts), for every organization at once.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');

/** @typedef {import('pg').Client} Client */

/** @typedef {typeof import('../../src/modules/engagement/rules/engagement-rollup')} EngagementRollup */

/**
 * SQL list of the event types that are evidence of a stage mark (the service's STAGE_EVIDENCE table).
 * @param {import('../../src/modules/engagement/rules/engagement-rollup').StageMark} mark
 */
function evidenceTypes(mark) {
  /** @type {EngagementRollup} */
  const { EVENT_TYPES, STAGE_EVIDENCE } = require(path.join(DIST, 'modules/engagement/rules/engagement-rollup'));
  return EVENT_TYPES.filter((type) => STAGE_EVIDENCE[type].includes(mark))
    .map((type) => `'${type}'`)
    .join(', ');
}

/**
 * addEvent's distinct sets: non-bot events only; a page view's id, its visitor or (without one) the ephemeral page view; sessions by kind.
 * @param {Client} db
 */
async function insertDistinctValues(db) {
  // Every distinct value of every link, in primary-key order.
  await db.query(
    `INSERT INTO link_distinct_values (organization_id, custom_link_id, kind, value)
     SELECT DISTINCT e.organization_id, e.custom_link_id, d.kind, d.value
       FROM link_events e
      CROSS JOIN LATERAL (VALUES
        ('page_view', CASE WHEN e.type = 'page_view' THEN nullif(e.page_view_id, '') END),
        ('visitor', CASE WHEN e.type = 'page_view' THEN nullif(e.visitor_id, '') END),
        ('ephemeral_page_view', CASE WHEN e.type = 'page_view' AND nullif(e.visitor_id, '') IS NULL THEN nullif(e.page_view_id, '') END),
        ('session', e.session_id::text),
        ('started_session', CASE WHEN e.type = 'session_started' THEN e.session_id::text END),
        ('engaged_session', CASE WHEN e.type = 'session_engaged' THEN e.session_id::text END)) AS d(kind, value)
      WHERE NOT e.bot AND d.value IS NOT NULL
      ORDER BY 1, 2, 3, 4`,
  );
}

/**
 * Session references (events.service addSessionTimes): per (link, session) of non-bot events, the earliest time of each kind.
 * @param {Client} db
 */
async function insertLinkSessions(db) {
  // One reference per (link, session), in primary-key order.
  await db.query(
    `INSERT INTO link_sessions (organization_id, custom_link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at)
     SELECT organization_id, custom_link_id, session_id,
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('opened')})),
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('started')})),
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('engaged')})),
            min(occurred_at) FILTER (WHERE type = 'session_ended'),
            min(occurred_at)
       FROM link_events WHERE session_id IS NOT NULL AND NOT bot
      GROUP BY organization_id, custom_link_id, session_id
      ORDER BY 1, 2, 3`,
  );
}

/**
 * Every link's rollup in one UPDATE (statsOf/storedFormOf/stageOf): bots only count as bot opens;
 * opens and loads mark the link opened; first times by STAGE_EVIDENCE; distinct counts from
 * link_distinct_values; last activity = latest non-bot event, ties by event id in byte order.
 * updated_at moves to the build's time, as the service's rollup writes move it (its touch_updated_at
 * trigger is off during the load: bench/data/derived-tables.js).
 * @param {Client} db
 * @param {string} now  The build's "now" (ISO 8601).
 */
async function updateLinkRollups(db, now) {
  const counts = {
    page_view: 'page_view_count',
    visitor: 'persistent_visitor_count',
    ephemeral_page_view: 'ephemeral_page_view_count',
    session: 'session_count',
    started_session: 'started_session_count',
    engaged_session: 'engaged_session_count',
  };
  // The rollup of every link with events, from the events (a), their distinct values (d) and the last activity (la).
  await db.query(
    `UPDATE custom_links l SET
       open_observed = a.open_observed, bot_open_count = a.bot_open_count, load_count = a.load_count,
       ${Object.values(counts)
         .map((c) => `${c} = coalesce(d.${c}, 0)`)
         .join(', ')},
       first_opened_at = a.first_opened_at, last_opened_at = a.last_opened_at, first_started_at = a.first_started_at, first_engaged_at = a.first_engaged_at,
       first_lead_submitted_at = a.first_lead_submitted_at, first_meeting_clicked_at = a.first_meeting_clicked_at,
       first_meeting_booked_at = a.first_meeting_booked_at,
       last_activity_at = la.occurred_at, last_activity_type = la.type, last_activity_event_id = la.event_id,
       stage = CASE WHEN a.first_engaged_at IS NOT NULL THEN 'engaged' WHEN a.first_started_at IS NOT NULL THEN 'started'
                    WHEN a.first_opened_at IS NOT NULL THEN 'opened' ELSE 'not_opened' END,
       updated_at = greatest($1::timestamptz, l.updated_at)
     FROM (
       SELECT organization_id, custom_link_id,
              coalesce(bool_or(NOT bot AND type IN ('open', 'page_view')), false) AS open_observed,
              count(*) FILTER (WHERE bot AND type = 'open') AS bot_open_count,
              count(*) FILTER (WHERE NOT bot AND type = 'page_view') AS load_count,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('opened')})) AS first_opened_at,
              max(occurred_at) FILTER (WHERE NOT bot AND type IN ('open', 'page_view')) AS last_opened_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('started')})) AS first_started_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('engaged')})) AS first_engaged_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'lead_submitted') AS first_lead_submitted_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'meeting_clicked') AS first_meeting_clicked_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'meeting_booked') AS first_meeting_booked_at
         FROM link_events GROUP BY organization_id, custom_link_id) a
     LEFT JOIN (
       SELECT organization_id, custom_link_id, ${Object.entries(counts)
         .map(([kind, c]) => `count(*) FILTER (WHERE kind = '${kind}') AS ${c}`)
         .join(', ')}
         FROM link_distinct_values GROUP BY organization_id, custom_link_id) d
       ON d.organization_id = a.organization_id AND d.custom_link_id = a.custom_link_id
     LEFT JOIN (
       SELECT DISTINCT ON (organization_id, custom_link_id) organization_id, custom_link_id, occurred_at, type, event_id
         FROM link_events WHERE NOT bot ORDER BY organization_id, custom_link_id, occurred_at DESC, event_id COLLATE "C" DESC) la
       ON la.organization_id = a.organization_id AND la.custom_link_id = a.custom_link_id
     WHERE l.organization_id = a.organization_id AND l.id = a.custom_link_id`,
    [now],
  );
}

module.exports = { insertDistinctValues, insertLinkSessions, updateLinkRollups };
