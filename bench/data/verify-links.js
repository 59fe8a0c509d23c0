// Verification of a sample of links against the service's compiled engagement rules and events.service.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { log } = require('./log');
const {
  compareColumns,
  compareEngagementWrites,
  eventOfRow,
  linkRollupColumns,
  whatTheFoldWrites,
} = require('./verify-columns');

/** @typedef {{ org: string, id: string }} LinkRef */

/** @param {LinkRef[]} pairs */
const pairsParam = (pairs) => [pairs.map((p) => p.org), pairs.map((p) => p.id)];
/**
 * @param {string} orgColumn
 * @param {string} idColumn
 */
const IN_PAIRS = (orgColumn, idColumn) =>
  `(${orgColumn}, ${idColumn}) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`;

const VERIFY_EVENT_BUDGET = 1_500_000;

/**
 * Links to verify: the hottest, some without events, some bot-only, random ones, and some of the
 * other organizations; at most VERIFY_EVENT_BUDGET events in all (they are loaded into memory).
 * Chosen in SQL: the generator holds no per-link data.
 * @param {import('pg').Client} db
 * @param {import('./organizations').OrganizationSpec[]} specs
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
  /** @type {{ kind: string, id: string, n: number }[]} */
  const perKind = rows;
  /** @param {string} kind */
  const ofKind = (kind) => perKind.filter((r) => r.kind === kind);
  const hottest = ofKind('hottest');
  const botOnly = ofKind('botOnly');
  const random = ofKind('random');
  const silent = random.filter((r) => r.n === 0).slice(0, 25);
  const { rows: others } = await db.query(
    `SELECT organization_id AS org, id FROM custom_links WHERE organization_id = ANY($1) ORDER BY random() LIMIT 30`,
    [specs.slice(1).map((s) => s.id)],
  );
  /** @type {Map<string, LinkRef>} */
  const unique = new Map();
  let events = 0;
  /** @type {{ org?: string, id: string, n?: number }[]} */
  const candidates = [...hottest, ...silent, ...botOnly, ...random.slice(0, 300), ...others];
  for (const link of candidates.map((r) => ({ org: r.org ?? main, id: r.id, n: r.n ?? 0 }))) {
    if (unique.has(`${link.org}/${link.id}`) || (events + link.n > VERIFY_EVENT_BUDGET && unique.size > 0)) continue;
    unique.set(`${link.org}/${link.id}`, { org: link.org, id: link.id });
    events += link.n;
  }
  return { links: [...unique.values()], hottest: hottest.length, silent: silent.length, botOnly: botOnly.length };
}

/**
 * @param {import('pg').Client} db
 * @param {import('./organizations').OrganizationSpec[]} specs
 * @param {string[]} failures
 */
async function verifyLinks(db, specs, failures) {
  /** @type {typeof import('../../src/modules/engagement/rules/engagement-rollup')} */
  const rules = require(path.join(DIST, 'modules/engagement/rules/engagement-rollup'));
  const { statsOf } = rules;
  const sample = await linkSample(db, specs);
  const params = pairsParam(sample.links);
  /** @param {string} sql */
  const query = async (sql) => db.query(sql, params);
  const links = await query(`SELECT * FROM custom_links WHERE ${IN_PAIRS('organization_id', 'id')}`);
  const events =
    await query(`SELECT organization_id, custom_link_id, event_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, bot_reason, internal_reason FROM link_events
                                WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const distinct = await query(
    `SELECT organization_id, custom_link_id, kind, value FROM link_distinct_values WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`,
  );
  const sessions = await query(`SELECT * FROM link_sessions WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  /** @type {Map<string, import('./verify-columns').NewEvent[]>} */
  const eventsOf = new Map(sample.links.map((l) => [l.id, []]));
  /** @param {string} id */
  const eventsOfLink = (id) => {
    const list = eventsOf.get(id);
    if (!list) throw new Error(`link ${id} is not in the sample`);
    return list;
  };
  for (const e of events.rows) eventsOfLink(e.custom_link_id).push(eventOfRow(e));
  // Link columns against statsOf / storedFormOf / stageOf.
  for (const row of links.rows) {
    compareColumns(failures, `link ${row.id}`, linkRollupColumns(statsOf(eventsOfLink(row.id)), rules), row);
  }
  if (links.rows.length !== sample.links.length)
    failures.push(`links: ${sample.links.length} sampled, ${links.rows.length} found`);
  // Distinct values and session references against what events.service would write, per organization.
  let expectedDistinct = 0;
  let expectedSessions = 0;
  for (const org of new Set(sample.links.map((l) => l.org))) {
    const orgLinks = sample.links.filter((l) => l.org === org);
    const written = await whatTheFoldWrites(
      org,
      orgLinks.flatMap((l) => eventsOfLink(l.id)),
    );
    /** @param {any[]} rows */
    const ofOrg = (rows) => rows.filter((r) => r.organization_id === org);
    const expected = compareEngagementWrites(
      failures,
      `org ${org}`,
      written,
      ofOrg(distinct.rows),
      ofOrg(sessions.rows),
    );
    expectedDistinct += expected.distinct;
    expectedSessions += expected.sessions;
  }
  log(
    `  verified ${links.rows.length} links (${sample.hottest} hottest, ${sample.silent} without events, ${sample.botOnly} bot-only, the rest random, ` +
      `${sample.links.filter((l) => l.org !== specs[0].id).length} of the other organizations): ${events.rows.length} events, ${expectedDistinct} distinct values, ` +
      `${expectedSessions} session references, every rollup column`,
  );
}

module.exports = { verifyLinks };
