// Verification of a sample of links against the service's compiled engagement rules and events.service.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { log } = require('./log');
const { compareColumns, linkRollupColumns } = require('./verify-columns');

const pairsParam = (pairs) => [pairs.map((p) => p.org), pairs.map((p) => p.id)];
const IN_PAIRS = (orgColumn, idColumn) => `(${orgColumn}, ${idColumn}) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`;

const VERIFY_EVENT_BUDGET = 1_500_000;

/**
 * Links to verify: the hottest, some without events, some bot-only, random ones, and some of the
 * other organizations; at most VERIFY_EVENT_BUDGET events in all (they are loaded into memory).
 * Chosen in SQL: the generator holds no per-link data.
 */
async function linkSample(db, specs) {
  const main = specs[0].id;
  // The main organization's hottest and bot-only links, and random ones, with their event counts.
  const { rows } = await db.query(
    `WITH per_link AS MATERIALIZED (
       SELECT custom_link_id AS id, count(*)::int AS n, bool_and(bot) AS bot_only FROM link_events WHERE organization_id = $1 GROUP BY 1)
     (SELECT 'hottest' AS kind, id, n FROM per_link ORDER BY n DESC LIMIT 15)
     UNION ALL (SELECT 'botOnly', id, n FROM per_link WHERE bot_only ORDER BY random() LIMIT 15)
     UNION ALL (SELECT 'random', r.id, coalesce(p.n, 0) FROM (SELECT id FROM custom_links WHERE organization_id = $1 ORDER BY random() LIMIT 400) r
                  LEFT JOIN per_link p ON p.id = r.id)`,
    [main],
  );
  const ofKind = (kind) => rows.filter((r) => r.kind === kind);
  const hottest = ofKind('hottest');
  const botOnly = ofKind('botOnly');
  const random = ofKind('random');
  const silent = random.filter((r) => r.n === 0).slice(0, 25);
  const { rows: others } = await db.query(`SELECT organization_id AS org, id FROM custom_links WHERE organization_id = ANY($1) ORDER BY random() LIMIT 30`, [specs.slice(1).map((s) => s.id)]);
  const unique = new Map();
  let events = 0;
  for (const link of [...hottest, ...silent, ...botOnly, ...random.slice(0, 300), ...others].map((r) => ({ org: r.org ?? main, id: r.id, n: r.n ?? 0 }))) {
    if (unique.has(`${link.org}/${link.id}`) || (events + link.n > VERIFY_EVENT_BUDGET && unique.size > 0)) continue;
    unique.set(`${link.org}/${link.id}`, { org: link.org, id: link.id });
    events += link.n;
  }
  return { links: [...unique.values()], hottest: hottest.length, silent: silent.length, botOnly: botOnly.length };
}

/** What events.service.apply writes for these events (distinct values, session references), captured from a stand-in repository. */
async function whatEventsServiceWrites(org, events) {
  require('reflect-metadata');
  const { EventsService } = require(path.join(DIST, 'modules/engagement/events.service'));
  const captured = { distinct: [], sessions: [] };
  const repository = {
    insertEvents: async (_tx, _org, batch) => new Set(batch.map((e) => e.eventId)),
    insertDistinct: async (_tx, _org, values) => {
      const counts = new Map();
      for (const value of values) {
        captured.distinct.push(value);
        counts.set(`${value.linkId}:${value.kind}`, (counts.get(`${value.linkId}:${value.kind}`) ?? 0) + 1);
      }
      return counts;
    },
    mergeSessions: async (_tx, _org, sessions) => {
      for (const session of sessions) captured.sessions.push(session);
    },
  };
  // The links' side (rollups merged on the link rows) is not what this check reads.
  const links = { get: () => ({ merge: async () => {}, changed: async () => {} }) };
  // Nor the webhook messages a batch records, nor its Idempotency-Key answer.
  const webhooks = { record: async () => {} };
  const service = new EventsService({ transaction: (work) => work({}) }, repository, links, undefined, webhooks);
  if (events.length > 0) await service.apply(org, events);
  return captured;
}

async function verifyLinks(db, specs, failures) {
  const rules = require(path.join(DIST, 'modules/engagement/rules/engagement-rollup'));
  const { statsOf } = rules;
  const sample = await linkSample(db, specs);
  const params = pairsParam(sample.links);
  const query = async (sql) => db.query(sql, params);
  const links = await query(`SELECT * FROM custom_links WHERE ${IN_PAIRS('organization_id', 'id')}`);
  const events = await query(`SELECT organization_id, custom_link_id, event_id, type, occurred_at, page_view_id, visitor_id, session_id, bot FROM link_events
                                WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const distinct = await query(`SELECT organization_id, custom_link_id, kind, value FROM link_distinct_values WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const sessions = await query(`SELECT * FROM link_sessions WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const eventsOf = new Map(sample.links.map((l) => [l.id, []]));
  for (const e of events.rows) {
    eventsOf.get(e.custom_link_id).push({ linkId: e.custom_link_id, eventId: e.event_id, type: e.type, occurredAt: e.occurred_at, pageViewId: e.page_view_id,
      visitorId: e.visitor_id, sessionId: e.session_id, bot: e.bot });
  }
  // Link columns against statsOf / storedFormOf / stageOf.
  for (const row of links.rows) {
    compareColumns(failures, `link ${row.id}`, linkRollupColumns(statsOf(eventsOf.get(row.id)), rules), row);
  }
  if (links.rows.length !== sample.links.length) failures.push(`links: ${sample.links.length} sampled, ${links.rows.length} found`);
  // Distinct values and session references against what events.service would write, per organization.
  let expectedDistinct = 0;
  let expectedSessions = 0;
  for (const org of new Set(sample.links.map((l) => l.org))) {
    const orgLinks = sample.links.filter((l) => l.org === org);
    const written = await whatEventsServiceWrites(org, orgLinks.flatMap((l) => eventsOf.get(l.id)));
    const want = new Set(written.distinct.map((v) => `${v.linkId}|${v.kind}|${v.value}`));
    const have = new Set(distinct.rows.filter((r) => r.organization_id === org).map((r) => `${r.custom_link_id}|${r.kind}|${r.value}`));
    for (const value of want) if (!have.has(value)) failures.push(`link_distinct_values missing ${value}`);
    for (const value of have) if (!want.has(value)) failures.push(`link_distinct_values extra ${value}`);
    expectedDistinct += want.size;
    const stored = new Map(sessions.rows.filter((r) => r.organization_id === org).map((r) => [`${r.custom_link_id}|${r.session_id}`, r]));
    for (const s of written.sessions) {
      const row = stored.get(`${s.linkId}|${s.sessionId}`);
      if (!row) failures.push(`link_sessions missing ${s.linkId}|${s.sessionId}`);
      else compareColumns(failures, `link_sessions ${s.linkId}|${s.sessionId}`, { opened_at: s.openedAt, started_at: s.startedAt, engaged_at: s.engagedAt, ended_at: s.endedAt, first_seen_at: s.firstSeenAt }, row);
    }
    if (stored.size !== written.sessions.length) failures.push(`link_sessions of org ${org}: ${stored.size} stored, ${written.sessions.length} expected`);
    expectedSessions += written.sessions.length;
  }
  log(`  verified ${links.rows.length} links (${sample.hottest} hottest, ${sample.silent} without events, ${sample.botOnly} bot-only, the rest random, ` +
    `${sample.links.filter((l) => l.org !== specs[0].id).length} of the other organizations): ${events.rows.length} events, ${expectedDistinct} distinct values, ` +
    `${expectedSessions} session references, every rollup column`);
}

module.exports = { verifyLinks };
