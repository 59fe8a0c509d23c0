// Derivation: people (person-rollup.ts, intent.ts, account-domain.ts) from the staged sessions.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { uuid7, ms, VISIBLE, visibleOf, nonEmpty } = require('./sql');

const LATEST = `ORDER BY s.start_time DESC, s.id DESC`;

/** @typedef {import('pg').Client} Client */
/** @typedef {typeof import('../../src/modules/people/rules/intent')} IntentRules */
/** @typedef {import('../../src/modules/people/rules/intent').IntentInput} IntentInput */

/**
 * Every person's rollup fields except intent, as SQL aggregates of its visible sessions (all organizations).
 * @param {Client} db
 */
async function stagePeople(db) {
  // Latest non-empty values, first/last source, latest location, effective qualification (docs/api.md §13.3 order), sums and extremes.
  await db.query(
    `INSERT INTO bench_gen.people_stage (organization_id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at,
       total_time_spent_seconds, first_source, last_source, last_location, qualification_status, qualification_rationale, qualification_source,
       qualification_assessed_at, qualification_rubric_version_id, buying_intent, summary_markdown)
     SELECT organization_id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at, total_time_spent_seconds,
            first_source, last_source, last_location, (qualification).status, (qualification).rationale, (qualification).source,
            (qualification).assessed_at, (qualification).rubric_version_id, buying_intent, summary_markdown
       FROM (
         SELECT s.organization_id, s.email_key,
                (array_agg(s.name ${LATEST}) FILTER (WHERE ${nonEmpty('s.name')}))[1] AS name,
                (array_agg(s.phone ${LATEST}) FILTER (WHERE ${nonEmpty('s.phone')}))[1] AS phone,
                (array_agg(s.business ${LATEST}) FILTER (WHERE ${nonEmpty('s.business')}))[1] AS business,
                count(*) AS total_sessions, count(*) FILTER (WHERE s.booked_status = 'booked') AS booked_sessions,
                min(s.start_time) AS first_seen_at, max(coalesce(s.end_time, s.start_time)) AS last_seen_at,
                sum(floor(greatest(0, extract(epoch FROM coalesce(s.end_time, s.start_time) - s.start_time))))::bigint AS total_time_spent_seconds,
                (array_agg(s.utm_source ORDER BY s.start_time, s.id))[1] AS first_source,
                (array_agg(s.utm_source ${LATEST}))[1] AS last_source,
                (array_agg(loc.location ${LATEST}) FILTER (WHERE loc.location IS NOT NULL))[1] AS last_location,
                (array_agg(ROW(s.qualification_status, s.qualification_rationale, s.qualification_source, s.qualification_assessed_at,
                               s.qualification_rubric_version_id)::bench_gen.qualification
                           ORDER BY coalesce(s.qualification_assessed_at, s.start_time) DESC, s.qualification_source IS NOT DISTINCT FROM 'manual' DESC,
                                    s.start_time DESC, s.id DESC)
                   FILTER (WHERE s.qualification_status IS NOT NULL))[1] AS qualification,
                (array_agg(s.buying_intent ${LATEST}))[1] AS buying_intent,
                (array_agg(s.summary_markdown ${LATEST}) FILTER (WHERE ${nonEmpty('s.summary_markdown')}))[1] AS summary_markdown
           FROM bench_gen.sessions_stage s
          CROSS JOIN LATERAL (
            SELECT nullif(concat_ws(', ', CASE WHEN ${nonEmpty(`s.tracking->>'geoCity'`)} THEN s.tracking->>'geoCity' END,
                                          CASE WHEN ${nonEmpty(`s.tracking->>'geoRegion'`)} THEN s.tracking->>'geoRegion' END,
                                          CASE WHEN ${nonEmpty('s.geo_country')} THEN s.geo_country END), '') AS location OFFSET 0) loc
          WHERE ${visibleOf('s')} AND s.email_key IS NOT NULL
          GROUP BY s.organization_id, s.email_key
       ) x`,
  );
}

/**
 * Intent scores with the service's own intentScore / overallIntentFor (recency decay), streamed
 * from a cursor over the stage in (person, start, id) order and written back in batches.
 * @param {Client} db
 * @param {string} now
 */
async function computeIntent(db, now) {
  /** @type {IntentRules} */
  const { intentScore, overallIntentFor } = require(path.join(DIST, 'modules/people/rules/intent'));
  const asOf = new Date(now);
  /** @type {{ org: string[], key: string[], score: number[], overall: string[] }} */
  const out = { org: [], key: [], score: [], overall: [] };
  /** @type {{ org: string, key: string, sessions: IntentInput[] } | null} */
  let current = null;
  const flushPerson = () => {
    if (!current) return;
    const score = intentScore(current.sessions, asOf);
    out.org.push(current.org);
    out.key.push(current.key);
    out.score.push(score);
    out.overall.push(overallIntentFor(score));
  };
  const writeBatch = async () => {
    if (out.org.length === 0) return;
    // A batch of scores.
    await db.query(
      `INSERT INTO bench_gen.intent SELECT * FROM unnest($1::uuid[], $2::text[], $3::float8[], $4::text[])`,
      [out.org, out.key, out.score, out.overall],
    );
    for (const list of Object.values(out)) list.length = 0;
  };
  await db.query('BEGIN');
  // The visible sessions of every person, oldest first (the order rollUpPerson sorts them in).
  await db.query(
    `DECLARE intent_cursor NO SCROLL CURSOR FOR
       SELECT organization_id, email_key, (extract(epoch FROM start_time) * 1000)::float8, buying_intent FROM bench_gen.sessions_stage
        WHERE ${VISIBLE} AND email_key IS NOT NULL ORDER BY organization_id, email_key, start_time, id`,
  );
  for (;;) {
    const { rows } = await db.query({ text: 'FETCH 50000 FROM intent_cursor', rowMode: 'array' });
    if (rows.length === 0) break;
    for (const [
      org,
      key,
      startMs,
      buyingIntent,
    ] of /** @type {[string, string, number, IntentInput['buyingIntent']][]} */ (rows)) {
      if (!current || current.key !== key || current.org !== org) {
        flushPerson();
        current = { org, key, sessions: [] };
      }
      current.sessions.push({ startTime: new Date(startMs), buyingIntent });
    }
    if (out.org.length >= 20000) await writeBatch();
  }
  flushPerson();
  await writeBatch();
  await db.query('COMMIT');
}

/**
 * People rows: aggregates + account domain (per email host, from accountDomainOf) + intent; ids are uuid v7 of their creation.
 * @param {Client} db
 * @param {string} now
 */
async function insertPeople(db, now) {
  await db.query(`CREATE INDEX ON bench_gen.intent (organization_id, email_key)`);
  // People in order of creation (their first session), updated by the last intent refresh (now).
  await db.query(
    `INSERT INTO people (organization_id, id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at,
       total_time_spent_seconds, first_source, last_source, last_location, qualification_status, qualification_rationale, qualification_source,
       qualification_assessed_at, qualification_rubric_version_id, buying_intent, account_domain, summary_markdown, intent_score, overall_intent,
       intent_calculated_at, created_at, updated_at)
     SELECT ps.organization_id, ${uuid7('c.created_at')}, ps.email_key, ps.name, ps.phone, ps.business, ps.total_sessions, ps.booked_sessions,
            ps.first_seen_at, ps.last_seen_at, ps.total_time_spent_seconds, ps.first_source, ps.last_source, ps.last_location,
            ps.qualification_status, ps.qualification_rationale, ps.qualification_source, ps.qualification_assessed_at,
            ps.qualification_rubric_version_id, ps.buying_intent, h.account_domain, ps.summary_markdown, i.score, i.overall, $1::timestamptz,
            c.created_at, $1::timestamptz
       FROM bench_gen.people_stage ps
       JOIN bench_gen.intent i ON i.organization_id = ps.organization_id AND i.email_key = ps.email_key
       LEFT JOIN bench_gen.hosts h ON h.host = split_part(ps.email_key, '@', 2)
      CROSS JOIN LATERAL (SELECT ${ms(`least(ps.first_seen_at + interval '3 minutes' + random() * interval '5 minutes', $1::timestamptz)`)} AS created_at OFFSET 0) c
      ORDER BY c.created_at`,
    [now],
  );
}

module.exports = { stagePeople, computeIntent, insertPeople };
