// Verification: expected column values (from the service's rules) against a stored row.
'use strict';

const same = (a, b) => (a instanceof Date || b instanceof Date ? a?.getTime?.() === b?.getTime?.() : a === b);
const show = (value) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

/** Compares expected column values with a stored row; records every difference. */
function compareColumns(failures, what, expected, row) {
  for (const [column, value] of Object.entries(expected)) {
    const stored = row[column] instanceof Date || row[column] === null || typeof value !== 'number' ? row[column] : Number(row[column]);
    if (!same(value, stored)) failures.push(`${what}: ${column} stored ${show(stored)}, rules give ${show(value)}`);
  }
}

/**
 * A link's rollup columns as the service's rules give them for its events: `stats` from statsOf,
 * `rules` the compiled engagement-rollup module (storedFormOf, stageOf).
 */
function linkRollupColumns(stats, { storedFormOf, stageOf }) {
  const stored = storedFormOf(stats);
  return {
    open_observed: stored.openObserved, bot_open_count: stored.botOpenCount, load_count: stored.loadCount, page_view_count: stored.pageViewCount,
    persistent_visitor_count: stored.persistentUniqueVisitorCount, ephemeral_page_view_count: stored.ephemeralPageViewCount,
    session_count: stored.sessionCount, started_session_count: stored.startedSessionCount, engaged_session_count: stored.engagedSessionCount,
    first_opened_at: stored.firstOpenedAt, last_opened_at: stored.lastOpenedAt, first_started_at: stored.firstStartedAt, first_engaged_at: stored.firstEngagedAt,
    first_lead_submitted_at: stored.firstLeadSubmittedAt, first_meeting_clicked_at: stored.firstMeetingClickedAt, first_meeting_booked_at: stored.firstMeetingBookedAt,
    last_activity_at: stored.lastActivityAt, last_activity_type: stored.lastActivityType, last_activity_event_id: stats.lastActivity?.eventId ?? null,
    stage: stageOf(stored),
  };
}

module.exports = { compareColumns, linkRollupColumns };
