// Generation: sessions (into the stage first; people and accounts are derived from the stage), then
// from the stage into the sessions table once the people exist.
'use strict';
const { VOCAB } = require('./vocabulary');
const { Params, ms, normal, VISIBLE, visibleOf } = require('./sql');
const { trackingJson, detailsJson, featurePair } = require('./session-documents');
const { log } = require('./log');

const SESSION_CHUNK = 100_000;

/**
 * @typedef {import('pg').Client} Client
 * @typedef {import('./organizations').OrganizationSpec} OrganizationSpec
 */

/** The session columns written from the stage (person_id and effective_qualification_status come from the people). */
const SESSION_COLUMNS = `organization_id, id, environment, analysis_status, display_id, start_time, end_time, session_type, email, email_key, name,
  business, phone, qualification_status, qualification_rationale, qualification_source, qualification_assessed_at, qualification_rubric_version_id,
  buying_intent, booked_status, session_status, sentiment, engagement_level, primary_intent, summary_markdown, utm_source, device, geo_country,
  tracking, details, custom_link_id, custom_link_campaign_id, fingerprint, created_at, updated_at`;

/**
 * Sessions g in [lo, hi] of one organization into the stage: g <= sessions are visible (production,
 * analyzed), the rest staging or pending; the first `people` visible ones give each person a
 * session, later ones repeat people (skewed) or are anonymous (~8 %). Start times over the past
 * year (growing towards now) with weekday and business-hour rhythm in the visitor's time zone.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {string} now
 * @param {number} lo
 * @param {number} hi
 */
async function stageSessions(db, spec, now, lo, hi) {
  const p = new Params();
  const S = p.v(spec.sessions, 'int');
  const P = p.v(spec.people, 'int');
  const NOW = p.v(now, 'timestamptz');
  const anonRate = Math.min(1, Math.max(0, (0.08 * spec.sessions) / Math.max(1, spec.sessions - spec.people)));
  const randoms = [
    'anon',
    'rep',
    'env',
    'link',
    'type',
    'status',
    'intent',
    'd1',
    'd2',
    'd3',
    'd4',
    't',
    'wk',
    'h1',
    'h2',
    'h3',
    'min',
    'geo',
    'geo2',
    'end',
    'qn',
    'q',
    'src',
    'ass',
    'rat',
    'bn',
    'b',
    'sent',
    'eng',
    'pi',
    'utm',
    'med',
    'camp',
    'term',
    'cont',
    'path',
    'dev',
    'case',
    'name',
    'bus',
    'ph',
    'sum',
    'f1',
    'f2',
    'b1',
    'ns',
    'x1',
    'x2',
    'x3',
    'x4',
    'x5',
    'x6',
    'x7',
    'x8',
    'created',
  ];
  const NF = VOCAB.features.length;
  const NB = VOCAB.bullets.length;
  const NN = VOCAB.next_steps.length;
  const NO = VOCAB.objection_types.length;
  const { f1, f2 } = featurePair(p);
  /** @param {number} k */
  const bullet = (k) => p.at('bullets', `1 + (m.bi + ${k}) % ${NB}`);
  const place = p.at('places', 'b.place_i');
  // One chunk of staged sessions: who, when, what the analysis said, tracking and details documents.
  await db.query(
    `INSERT INTO bench_gen.sessions_stage (${SESSION_COLUMNS})
     WITH x AS MATERIALIZED (SELECT g, gen_random_uuid() AS id, ${randoms.map((r) => `random() AS r_${r}`).join(', ')}
               FROM generate_series(${p.v(lo, 'int')}, ${p.v(hi, 'int')}) AS g)
     SELECT ${p.v(spec.id, 'uuid')}, x.id, a.environment, a.analysis_status,
            'S-' || to_char(t.start_time, 'YYMMDD') || '-' || upper(substr(md5(x.g::text || ${p.v(spec.id, 'text')}), 1, 6)),
            t.start_time, t.end_time, b.session_type, e.email, lower(e.email), e.name, e.business, e.phone,
            q.status, q.rationale, q.source, q.assessed_at, q.rubric, b.intent, q.booked, b.session_status,
            CASE WHEN x.r_sent < 0.03 THEN NULL WHEN b.intent IN ('high', 'medium') THEN ${p.pick('sentiments_warm', 'x.r_sent')} ELSE ${p.pick('sentiments_cool', 'x.r_sent')} END,
            CASE WHEN b.dur_s * (0.7 + 0.6 * x.r_eng) > 900 THEN 'high' WHEN b.dur_s * (0.7 + 0.6 * x.r_eng) > 300 THEN 'medium' ELSE 'low' END,
            ${p.pick('primary_intents', 'x.r_pi')},
            CASE WHEN x.r_sum < 0.03 THEN NULL WHEN x.r_sum < 0.04 THEN ''
                 ELSE '**' || coalesce(e.name, 'Anonymous visitor') || '**' || coalesce(' (' || e.business || ')', '') || ' spent '
                      || greatest(1, round(b.dur_s / 60.0))::int || ' minutes in a'
                      || CASE b.session_type WHEN 'ai_demo' THEN 'n AI demo' WHEN 'voice_demo' THEN ' voice demo' ELSE ' guided tour' END
                      || ' focused on ' || ${f1} || ' and ' || ${f2} || E'.\\n\\n- ' || ${bullet(0)} || E'\\n- ' || ${bullet(1)} || E'\\n- ' || ${bullet(2)}
                      || E'\\n\\n**Next step:** ' || ${p.pick('next_steps', 'x.r_ns')} || '.' END,
            tr.utm_source, tr.device, tr.geo_country,
            ${trackingJson(p)},
            ${detailsJson(p)},
            CASE WHEN b.via_link THEN pl.link_id END, CASE WHEN b.via_link THEN pl.campaign_id END,
            md5(x.id::text) || md5(x.g::text || ${p.v(spec.id, 'text')}),
            c.created_at, CASE WHEN q.source = 'manual' AND q.assessed_at > c.created_at THEN q.assessed_at ELSE c.created_at END
       FROM x
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.g <= ${S} OR x.r_env >= 0.4 THEN 'production' ELSE 'staging' END AS environment,
               CASE WHEN x.g <= ${S} OR x.r_env < 0.28 THEN 'analyzed' ELSE 'pending' END AS analysis_status,
               x.g > ${S} AND x.r_env >= 0.28 AS recent,
               CASE WHEN x.g <= ${S} THEN
                      CASE WHEN x.g <= ${P} THEN x.g WHEN x.r_anon < ${p.v(anonRate, 'float8')} THEN NULL
                           ELSE 1 + (hashint4(floor(${P} * power(x.r_rep, 1.5))::int) & 2147483647) % ${P} END
                    WHEN x.r_anon < 0.1 THEN NULL ELSE 1 + floor(x.r_rep * ${P})::int END AS pn OFFSET 0) a
       LEFT JOIN bench_gen.prospects p ON p.org = ${p.v(spec.id, 'uuid')} AND p.n = a.pn
       LEFT JOIN bench_gen.prospect_links pl ON pl.org = ${p.v(spec.id, 'uuid')} AND pl.prospect_n = a.pn
      CROSS JOIN LATERAL (
        SELECT pl.responder IS TRUE AND x.r_link < 0.4 AS via_link, ${p.pick('session_types', 'x.r_type')} AS session_type,
               ${p.pick('session_statuses', 'x.r_status')} AS session_status, ${p.pick('intents', 'x.r_intent')} AS intent,
               CASE WHEN a.pn IS NULL OR x.r_geo < 0.1 THEN ${p.pick('weighted_places', 'x.r_geo2')}::int ELSE p.place_i END AS place_i OFFSET 0) b0
      CROSS JOIN LATERAL (
        SELECT b0.*, greatest(20, least(5400, exp(ln(CASE b0.session_type WHEN 'guided_tour' THEN 240 WHEN 'voice_demo' THEN 900 ELSE 600 END)
                                                  + 0.7 * ${normal('x.r_d1', 'x.r_d2', 'x.r_d3', 'x.r_d4')})
                                              * CASE WHEN b0.session_status IN ('abandoned', 'error') THEN 0.3 ELSE 1 END))::int AS dur_s OFFSET 0) b
      CROSS JOIN LATERAL (
        SELECT CASE WHEN b.via_link THEN pl.created_at + (${NOW} - pl.created_at) * power(x.r_t, 3)
                    WHEN a.recent THEN ${NOW} - x.r_t * interval '3 days'
                    WHEN x.r_t < 0.3 THEN ${NOW} - 365 * (x.r_t / 0.3) * interval '1 day'
                    ELSE ${NOW} - 365 * (1 - sqrt((x.r_t - 0.3) / 0.7)) * interval '1 day' END AS t0 OFFSET 0) t0
      CROSS JOIN LATERAL (
        SELECT ${ms(`least(greatest(
                 date_trunc('day', t0.t0)
                   + CASE WHEN extract(isodow FROM t0.t0) >= 6 AND x.r_wk < 0.7
                          THEN (floor(x.r_wk / 0.7 * 5) + 1 - extract(isodow FROM t0.t0)) * interval '1 day' ELSE interval '0' END
                   + (7.5 + 11 * (x.r_h1 + x.r_h2 + x.r_h3) / 3 - split_part(${place}, '|', 4)::int) * interval '1 hour' + x.r_min * interval '1 minute',
                 CASE WHEN b.via_link THEN pl.created_at + interval '2 minutes' ELSE '-infinity' END),
               ${NOW} - (b.dur_s + 600) * interval '1 second')`)} AS start_time OFFSET 0) t1
      CROSS JOIN LATERAL (
        SELECT t1.start_time, t1.start_time + (b.dur_s * 1000 + floor(x.r_min * 1000)::int) * interval '1 millisecond' AS finish,
               CASE WHEN x.r_end >= 0.03 THEN t1.start_time + (b.dur_s * 1000 + floor(x.r_min * 1000)::int) * interval '1 millisecond' END AS end_time OFFSET 0) t
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.r_qn < 0.1 THEN NULL
                    WHEN x.r_q < CASE b.intent WHEN 'high' THEN 0.75 WHEN 'medium' THEN 0.4 WHEN 'low' THEN 0.12 WHEN 'none' THEN 0.03 ELSE 0.2 END THEN 'qualified'
                    ELSE 'unqualified' END AS status OFFSET 0) q0
      CROSS JOIN LATERAL (
        SELECT q0.status,
               CASE WHEN q0.status IS NULL THEN NULL WHEN x.r_src < 0.08 THEN 'manual' WHEN x.r_src < 0.11 THEN NULL ELSE 'automatic' END AS source,
               CASE WHEN x.r_rat >= 0.9 THEN NULL WHEN q0.status = 'qualified' THEN ${p.pick('qualified_rationales', 'x.r_rat / 0.9')}
                    WHEN q0.status = 'unqualified' THEN ${p.pick('unqualified_rationales', 'x.r_rat / 0.9')} END AS rationale,
               CASE WHEN q0.status IS NULL THEN NULL WHEN t.start_time < ${NOW} - interval '240 days' THEN 'rubric-v1'
                    WHEN t.start_time < ${NOW} - interval '90 days' THEN 'rubric-v2' ELSE 'rubric-v3' END AS rubric,
               CASE WHEN x.r_bn < 0.1 THEN NULL WHEN x.r_b < CASE WHEN q0.status = 'qualified' THEN 0.35 ELSE 0.04 END THEN 'booked' ELSE 'not_booked' END AS booked OFFSET 0) q1
      CROSS JOIN LATERAL (
        SELECT q1.*, CASE WHEN q1.status IS NULL OR x.r_ass < 0.04 THEN NULL
                          WHEN q1.source = 'manual' THEN ${ms(`least(t.start_time + (1 + 9 * x.r_ass) * interval '1 day', ${NOW})`)}
                          ELSE ${ms(`least(t.finish + (30 + 120 * x.r_ass) * interval '1 second', ${NOW})`)} END AS assessed_at OFFSET 0) q
      CROSS JOIN LATERAL (
        SELECT CASE WHEN p.email IS NULL THEN NULL WHEN x.r_case < 0.85 THEN p.email
                    WHEN x.r_case < 0.95 THEN initcap(split_part(p.email, '@', 1)) || '@' || split_part(p.email, '@', 2) ELSE upper(p.email) END AS email,
               CASE WHEN a.pn IS NULL THEN CASE WHEN x.r_name < 0.3 THEN ${p.pick('first_names', 'x.r_name / 0.3')} END
                    WHEN x.r_name < 0.8 THEN p.first || ' ' || p.last WHEN x.r_name < 0.88 THEN p.first END AS name,
               CASE WHEN a.pn IS NULL THEN NULL WHEN p.free THEN CASE WHEN x.r_bus < 0.15 THEN p.business END
                    WHEN x.r_bus < 0.6 THEN p.business WHEN x.r_bus < 0.75 THEN p.business_short WHEN x.r_bus < 0.85 THEN p.business_legal END AS business,
               CASE WHEN x.r_ph < 0.3 THEN p.phone END AS phone OFFSET 0) e
      CROSS JOIN LATERAL (
        SELECT CASE WHEN b.via_link THEN 'outbound' ELSE ${p.pick('utm_sources', 'x.r_utm')} END AS utm_source,
               ${p.pick('devices', 'x.r_dev')} AS dev, CASE WHEN x.r_geo < 0.92 THEN ${place} END AS place OFFSET 0) tr0
      CROSS JOIN LATERAL (
        SELECT tr0.utm_source,
               CASE tr0.utm_source WHEN 'outbound' THEN 'email' WHEN 'google' THEN CASE WHEN x.r_med < 0.6 THEN 'cpc' ELSE 'organic' END
                    WHEN 'bing' THEN 'cpc' WHEN 'linkedin' THEN 'paid_social' WHEN 'facebook' THEN 'paid_social' WHEN 'twitter' THEN 'social'
                    WHEN 'newsletter' THEN 'email' WHEN 'partner' THEN 'referral' WHEN 'g2' THEN 'review' WHEN 'capterra' THEN 'review'
                    WHEN 'youtube' THEN 'video' WHEN 'webinar' THEN 'event' END AS utm_medium,
               nullif(split_part(tr0.dev, '|', 1), '') AS device, nullif(split_part(tr0.dev, '|', 2), '') AS browser, nullif(split_part(tr0.dev, '|', 3), '') AS os,
               nullif(split_part(tr0.place, '|', 1), '') AS geo_country, nullif(split_part(tr0.place, '|', 2), '') AS geo_region,
               nullif(split_part(tr0.place, '|', 3), '') AS geo_city OFFSET 0) tr
      CROSS JOIN LATERAL (
        SELECT 1 + floor(x.r_f1 * ${NF})::int AS fi, floor(x.r_b1 * ${NB})::int AS bi, floor(x.r_x5 * ${NN})::int AS ni,
               1 + floor(x.r_x2 * ${NO})::int AS oi OFFSET 0) m
      CROSS JOIN LATERAL (SELECT ${ms(`least(t.finish + (60 + 540 * x.r_created) * interval '1 second', ${NOW})`)} AS created_at OFFSET 0) c`,
    p.values,
  );
}

/**
 * Every organization's sessions into the stage, in chunks of 100k alternating between the two connections.
 * @param {Client} a
 * @param {Client} b
 * @param {OrganizationSpec[]} specs
 * @param {string} now
 */
async function stageAllSessions(a, b, specs, now) {
  const chunks = specs.flatMap((spec) => {
    const total = spec.sessions + spec.extraSessions;
    return Array.from({ length: Math.ceil(total / 100_000) }, (_, i) => ({
      spec,
      lo: i * 100_000 + 1,
      hi: Math.min(total, (i + 1) * 100_000),
    }));
  });
  let done = 0;
  /**
   * @param {Client} db
   * @param {typeof chunks} mine
   */
  const worker = async (db, mine) => {
    for (const { spec, lo, hi } of mine) {
      await stageSessions(db, spec, now, lo, hi);
      done += hi - lo + 1;
      if (spec === specs[0] && hi % 200_000 === 0) log(`  staged ${done} sessions`);
    }
  };
  await Promise.all([
    worker(
      a,
      chunks.filter((_, i) => i % 2 === 0),
    ),
    worker(
      b,
      chunks.filter((_, i) => i % 2 === 1),
    ),
  ]);
  await a.query(`CREATE INDEX ON bench_gen.sessions_stage (organization_id, start_time)`);
  await a.query(`CREATE INDEX ON bench_gen.sessions_stage (start_time)`);
  await a.query(`ANALYZE bench_gen.sessions_stage`);
}

/**
 * Every organization's sessions from the stage in start-time order, ~100k rows per statement, with
 * person and effective qualification. Organizations interleave as they would in production (sessions
 * arrive over time from all of them), so no organization's rows sit together in the table: a
 * tenant's search cannot read fewer pages than its rows need only because the build wrote them together.
 * @param {Client} db
 * @param {OrganizationSpec[]} specs
 */
async function insertSessions(db, specs) {
  const total = specs.reduce((sum, spec) => sum + spec.sessions + spec.extraSessions, 0);
  const chunks = Math.max(1, Math.ceil(total / SESSION_CHUNK));
  const fractions = Array.from({ length: chunks - 1 }, (_, i) => (i + 1) / chunks);
  // Chunk boundaries: start-time quantiles.
  /** @type {Date[]} */
  const bounds =
    fractions.length === 0
      ? []
      : (
          await db.query(
            `SELECT percentile_disc($1::float8[]) WITHIN GROUP (ORDER BY start_time) AS bounds FROM bench_gen.sessions_stage`,
            [fractions],
          )
        ).rows[0].bounds;
  const edges = [null, ...bounds, null];
  for (let i = 0; i < chunks; i += 1) {
    // One chunk: visible sessions with an email point at their person and carry its effective qualification; others keep their own.
    await db.query(
      `INSERT INTO sessions (${SESSION_COLUMNS}, person_id, effective_qualification_status)
       SELECT ${SESSION_COLUMNS.split(',')
         .map((c) => `s.${c.trim()}`)
         .join(', ')}, p.id, CASE WHEN p.id IS NULL THEN s.qualification_status ELSE p.qualification_status END
         FROM bench_gen.sessions_stage s
         LEFT JOIN people p ON p.organization_id = s.organization_id AND p.email_key = s.email_key AND ${visibleOf('s')}
        WHERE ($1::timestamptz IS NULL OR s.start_time >= $1) AND ($2::timestamptz IS NULL OR s.start_time < $2)
        ORDER BY s.start_time, s.id`,
      [edges[i], edges[i + 1]],
    );
  }
  // Each session id's organization, as ingestion records it (migration GlobalKeyLookups).
  await db.query(
    `INSERT INTO session_ids (id, organization_id) SELECT id, organization_id FROM bench_gen.sessions_stage`,
  );
  await insertDerivedRows(db);
}

/**
 * What the service writes with each session it stores (src/modules/sessions/derived-writes.ts): the
 * visible sessions counted per UTC month and facets (as pending deltas, which the maintenance job
 * compacts), and the email search's copy of the visible sessions with an email, in list order.
 * @param {Client} db
 */
async function insertDerivedRows(db) {
  const facets = 'effective_qualification_status, buying_intent, booked_status';
  await db.query(
    `INSERT INTO session_count_deltas (organization_id, month, ${facets}, sessions)
     SELECT organization_id, date_trunc('month', start_time AT TIME ZONE 'UTC'), ${facets}, count(*)
       FROM sessions WHERE ${VISIBLE} GROUP BY organization_id, 2, ${facets}`,
  );
  await db.query(
    `INSERT INTO session_emails (organization_id, id, start_time, email_key, ${facets})
     SELECT organization_id, id, start_time, email_key, ${facets} FROM sessions
      WHERE ${VISIBLE} AND email_key IS NOT NULL ORDER BY start_time, id`,
  );
}

module.exports = { stageAllSessions, insertSessions, insertDerivedRows };
