// Verification: expected column values (from the service's rules) against a stored row, and a
// link's engagement writes (distinct values, session references) against what the fold (EventFold) writes.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');

/**
 * @typedef {typeof import('../../src/modules/engagement/rules/engagement-rollup')} EngagementRollup
 * @typedef {import('../../src/modules/engagement/engagement.repository').NewEvent} NewEvent
 * @typedef {import('../../src/modules/engagement/engagement.repository').SessionTimes} SessionTimes
 * @typedef {{ linkId: string, kind: string, value: string }} DistinctValue
 * @typedef {{ distinct: DistinctValue[], sessions: SessionTimes[] }} EngagementWrites
 */

/**
 * @param {unknown} a
 * @param {unknown} b
 */
const same = (a, b) =>
  a instanceof Date || b instanceof Date
    ? (a instanceof Date ? a.getTime() : undefined) === (b instanceof Date ? b.getTime() : undefined)
    : a === b;
/** @param {unknown} value */
const show = (value) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

/**
 * Compares expected column values with a stored row; records every difference.
 * @param {string[]} failures
 * @param {string} what
 * @param {Record<string, unknown>} expected
 * @param {Record<string, unknown>} row
 */
function compareColumns(failures, what, expected, row) {
  for (const [column, value] of Object.entries(expected)) {
    const stored =
      row[column] instanceof Date || row[column] === null || typeof value !== 'number'
        ? row[column]
        : Number(row[column]);
    if (!same(value, stored)) failures.push(`${what}: ${column} stored ${show(stored)}, rules give ${show(value)}`);
  }
}

/**
 * A link's rollup columns as the service's rules give them for its events: `stats` from statsOf,
 * `rules` the compiled engagement-rollup module (storedFormOf, stageOf).
 * @param {import('../../src/modules/engagement/rules/engagement-rollup').LinkStats} stats
 * @param {Pick<EngagementRollup, 'storedFormOf' | 'stageOf'>} rules
 */
function linkRollupColumns(stats, { storedFormOf, stageOf }) {
  const stored = storedFormOf(stats);
  return {
    open_observed: stored.openObserved,
    bot_open_count: stored.botOpenCount,
    load_count: stored.loadCount,
    page_view_count: stored.pageViewCount,
    persistent_visitor_count: stored.persistentUniqueVisitorCount,
    ephemeral_page_view_count: stored.ephemeralPageViewCount,
    session_count: stored.sessionCount,
    started_session_count: stored.startedSessionCount,
    engaged_session_count: stored.engagedSessionCount,
    first_opened_at: stored.firstOpenedAt,
    last_opened_at: stored.lastOpenedAt,
    first_started_at: stored.firstStartedAt,
    first_engaged_at: stored.firstEngagedAt,
    first_lead_submitted_at: stored.firstLeadSubmittedAt,
    first_meeting_clicked_at: stored.firstMeetingClickedAt,
    first_meeting_booked_at: stored.firstMeetingBookedAt,
    last_activity_at: stored.lastActivityAt,
    last_activity_type: stored.lastActivityType,
    last_activity_event_id: stats.lastActivity?.eventId ?? null,
    stage: stageOf(stored),
  };
}

/** A link_events row (with bot_reason) as the event the fold (EventFold) reads back. */
/**
 * @param {Record<string, any>} row
 * @returns {NewEvent}
 */
function eventOfRow(row) {
  return {
    linkId: row.custom_link_id,
    eventId: row.event_id,
    type: row.type,
    occurredAt: row.occurred_at,
    pageViewId: row.page_view_id,
    visitorId: row.visitor_id,
    sessionId: row.session_id,
    bot: row.bot,
    botReason: row.bot_reason,
    internal: (row.internal_reason ?? null) !== null,
    internalReason: row.internal_reason ?? null,
    // The rollup reads no context.
    context: { country: null, deviceType: null, browser: null, os: null, referrerDomain: null, utm: null },
  };
}

/**
 * The distinct values and session references the compiled fold (EventFold) writes for these events
 * of one organization taken as one appended batch, captured from a stand-in repository. The links'
 * side (rollups merged on the link rows), hourly aggregates, facets and webhook messages are not read.
 * @param {string} organizationId
 * @param {NewEvent[]} events
 * @returns {Promise<EngagementWrites>}
 */
async function whatTheFoldWrites(organizationId, events) {
  require('reflect-metadata');
  const { EventFold } = require(path.join(DIST, 'modules/engagement/event-fold.service'));
  /** @type {EngagementWrites} */
  const written = { distinct: [], sessions: [] };
  const batch = { batchId: 'verify', receivedAt: new Date(), eventCount: events.length, replay: false };
  const repository = {
    lockFold: async () => true,
    pendingBatches: async () => [batch],
    eventsOfBatches: async () => events.map((e) => ({ ...e, batchId: batch.batchId })),
    completeFold: async () => {},
    addHours: async () => {},
    filingOf: async () => new Map(),
    addFacets: async () => {},
    /** @param {unknown} _tx @param {string} _org @param {DistinctValue[]} values */
    insertDistinct: async (_tx, _org, values) => {
      for (const value of values) written.distinct.push(value);
      return new Map();
    },
    /** @param {unknown} _tx @param {string} _org @param {SessionTimes[]} sessions */
    mergeSessions: async (_tx, _org, sessions) => {
      for (const session of sessions) written.sessions.push(session);
    },
  };
  const links = { merge: async () => new Map(), changed: async () => {} };
  const fold = new EventFold(
    { transaction: (/** @type {(tx: object) => unknown} */ work) => work({}) },
    repository,
    links,
    { record: async () => {} },
  );
  if (events.length > 0) await fold.foldOnce(organizationId);
  return written;
}

/**
 * One organization's stored link_distinct_values and link_sessions rows against what the fold
 * writes (`written`, from whatTheFoldWrites); records every difference, returns the expected counts.
 * @param {string[]} failures
 * @param {string} what
 * @param {EngagementWrites} written
 * @param {{ custom_link_id: string, kind: string, value: string }[]} distinctRows
 * @param {Record<string, unknown>[]} sessionRows
 */
function compareEngagementWrites(failures, what, written, distinctRows, sessionRows) {
  const want = new Set(written.distinct.map((v) => `${v.linkId}|${v.kind}|${v.value}`));
  const have = new Set(distinctRows.map((r) => `${r.custom_link_id}|${r.kind}|${r.value}`));
  for (const value of want) if (!have.has(value)) failures.push(`link_distinct_values missing ${value}`);
  for (const value of have) if (!want.has(value)) failures.push(`link_distinct_values extra ${value}`);
  const stored = new Map(sessionRows.map((r) => [`${r.custom_link_id}|${r.session_id}`, r]));
  for (const s of written.sessions) {
    const row = stored.get(`${s.linkId}|${s.sessionId}`);
    if (!row) failures.push(`link_sessions missing ${s.linkId}|${s.sessionId}`);
    else
      compareColumns(
        failures,
        `link_sessions ${s.linkId}|${s.sessionId}`,
        {
          opened_at: s.openedAt,
          started_at: s.startedAt,
          engaged_at: s.engagedAt,
          ended_at: s.endedAt,
          first_seen_at: s.firstSeenAt,
        },
        row,
      );
  }
  if (stored.size !== written.sessions.length)
    failures.push(`link_sessions of ${what}: ${stored.size} stored, ${written.sessions.length} expected`);
  return { distinct: want.size, sessions: written.sessions.length };
}

module.exports = { compareColumns, linkRollupColumns, eventOfRow, whatTheFoldWrites, compareEngagementWrites };
