#!/usr/bin/env node
// Sessions, people and accounts reads at a million sessions (issue 3): builds (once) a database
// with one organization of BENCH_SESSIONS sessions (default 1,000,000) plus a 50,000-session
// neighbour, records the query plans of the list endpoints (EXPLAIN ANALYZE through the real
// repositories), then loads each endpoint with autocannon through the built API.
// Usage: npm run build && node bench/analytics.js
//   BENCH_DB (default engagement_bench_1m, kept between runs; BENCH_REBUILD=1 rebuilds it),
//   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 20).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const autocannon = require('autocannon');
const { Client } = require('pg');

const PORT = 3902;
const SESSIONS = Number(process.env.BENCH_SESSIONS || 1_000_000);
const NEIGHBOUR_SESSIONS = 50_000;
const PEOPLE = Math.max(1, Math.round(SESSIONS / 4));
const DB = process.env.BENCH_DB || 'engagement_bench_1m';
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = ADMIN.replace(/\/[^/]*$/, `/${DB}`);
const env = { ...process.env, DATABASE_URL, REDIS_URL: 'redis://127.0.0.1:6379/14', PORT: String(PORT), APP_ROLE: 'api',
  NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', TRANSCRIPT_DAILY_LIMIT: '100000000' };
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const NOW = '2026-11-22T00:00:00Z';

const cli = (...args) => JSON.parse(execFileSync('node', ['dist/src/cli.js', ...args], { env, encoding: 'utf8' }));
const load = (opts) => new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));
const log = (...args) => console.error(new Date().toISOString().slice(11, 19), ...args);

// One chunk of sessions: ~4 sessions per person, 1 in 10 people on free mail, 2% staging,
// 2.5% pending, a session every 30 s going back in time, enums spread evenly.
const INSERT_SESSIONS = `
  INSERT INTO sessions (organization_id, id, environment, analysis_status, display_id, start_time, end_time, session_type,
    email, email_key, name, business, person_id, qualification_status, effective_qualification_status, qualification_rationale,
    qualification_source, qualification_assessed_at, qualification_rubric_version_id, buying_intent, booked_status,
    session_status, sentiment, engagement_level, primary_intent, summary_markdown, utm_source, device, geo_country,
    tracking, details, fingerprint)
  SELECT $1::uuid, gen_random_uuid(),
    CASE WHEN g % 50 = 0 THEN 'staging' ELSE 'production' END,
    CASE WHEN g % 40 = 0 THEN 'pending' ELSE 'analyzed' END,
    'S-' || g, $2::timestamptz - g * interval '30 seconds', $2::timestamptz - g * interval '30 seconds' + interval '20 minutes',
    'ai_demo', p.email, p.email, 'Prospect ' || p.n, 'Company ' || (p.n % 20000),
    CASE WHEN g % 50 <> 0 AND g % 40 <> 0 THEN md5($1::text || p.email)::uuid END,
    q.status, q.status, 'Budget and timeline discussed.', 'automatic', $2::timestamptz - g * interval '30 seconds' + interval '21 minutes',
    'rubric-v3', (ARRAY['high','medium','low','none'])[1 + g % 4], CASE WHEN g % 5 = 0 THEN 'booked' ELSE 'not_booked' END,
    'completed', 'positive', 'high', 'evaluate_product',
    '**Prospect ' || p.n || '** explored SSO, analytics and CRM sync; asked about pricing and a pilot.',
    (ARRAY['linkedin','google','newsletter'])[1 + g % 3], 'desktop', 'US',
    jsonb_build_object('utmSource', (ARRAY['linkedin','google','newsletter'])[1 + g % 3], 'utmMedium', 'social', 'utmCampaign', 'q4',
      'utmTerm', NULL, 'utmContent', NULL, 'referrerUrl', 'https://www.linkedin.com/', 'landingPageUrl', 'https://demo.example.com/',
      'device', 'desktop', 'browser', 'Chrome', 'os', 'macOS', 'geoCountry', 'US', 'geoRegion', 'CA', 'geoCity', 'San Francisco'),
    '{"qualificationReason":"Budget confirmed","qualificationStage":"evaluation","budgetRange":"$50k","buyingTimeline":"Q1","decisionMakerRole":"VP","isDecisionMaker":true,"confidenceScore":0.8,"nextSteps":["Send pricing"],"summaryBullets":["Asked about SSO"],"audioDurationSeconds":1200,"timelineEvents":[{"milestoneType":"intro","description":"Introductions","timestampOffsetS":0,"featuresMentioned":[],"sequenceOrder":1}],"topics":[{"topic":"pricing","interestLevel":"high","timeDiscussedS":240,"outcome":"follow_up"}],"objections":[]}'::jsonb,
    md5(g::text) || md5(g::text)
  FROM generate_series($3::int, $4::int) AS g
  CROSS JOIN LATERAL (SELECT (g::bigint * 7919) % $5 AS n) AS pn
  CROSS JOIN LATERAL (SELECT pn.n, 'user' || pn.n || '@' || CASE WHEN pn.n % 10 = 0 THEN 'gmail.com' ELSE 'co' || (pn.n % 20000) || '.com' END AS email) AS p
  CROSS JOIN LATERAL (SELECT CASE WHEN g % 3 = 0 THEN 'qualified' ELSE 'unqualified' END AS status) AS q`;

// People and accounts as aggregates of the generated sessions (a bench dataset, not the rollup code).
const INSERT_PEOPLE = `
  INSERT INTO people (organization_id, id, email_key, name, business, total_sessions, booked_sessions, first_seen_at, last_seen_at,
    total_time_spent_seconds, first_source, last_source, last_location, qualification_status, qualification_rationale,
    qualification_source, qualification_assessed_at, qualification_rubric_version_id, buying_intent, account_domain,
    summary_markdown, intent_score, overall_intent, intent_calculated_at)
  SELECT $1::uuid, md5($1::text || email_key)::uuid, email_key, max(name), max(business), count(*), count(*) FILTER (WHERE booked_status = 'booked'),
    min(start_time), max(end_time), count(*) * 1200, 'linkedin', 'google', 'San Francisco, CA, US',
    (array_agg(qualification_status ORDER BY start_time DESC))[1], 'Budget and timeline discussed.', 'automatic',
    max(qualification_assessed_at), 'rubric-v3', (array_agg(buying_intent ORDER BY start_time DESC))[1],
    CASE WHEN email_key LIKE '%@gmail.com' THEN NULL ELSE split_part(email_key, '@', 2) END, max(summary_markdown),
    i.score, CASE WHEN i.score >= 2 THEN 'high' WHEN i.score >= 1 THEN 'medium' ELSE 'low' END, $2
  FROM sessions
  CROSS JOIN LATERAL (SELECT round(((hashtext(email_key) & 1023) / 1023.0 * 3)::numeric, 6)::float8 AS score) AS i
  WHERE organization_id = $1 AND environment = 'production' AND analysis_status = 'analyzed'
  GROUP BY email_key, i.score`;

const INSERT_ACCOUNTS = `
  INSERT INTO accounts (organization_id, id, account_domain, company_name, total_users, total_sessions, booked_sessions,
    high_intent_users, qualified_users, total_time_spent_seconds, last_seen_at, summary_markdown)
  SELECT $1::uuid, md5($1::text || account_domain)::uuid, account_domain, max(business), count(*), sum(total_sessions), sum(booked_sessions),
    count(*) FILTER (WHERE overall_intent = 'high'), count(*) FILTER (WHERE qualification_status = 'qualified'),
    sum(total_time_spent_seconds), max(last_seen_at), max(summary_markdown)
  FROM people WHERE organization_id = $1 AND account_domain IS NOT NULL GROUP BY account_domain`;

async function fillOrganization(db, organizationId, sessions, people) {
  const chunk = 100_000;
  for (let lo = 1; lo <= sessions; lo += chunk) {
    await db.query(INSERT_SESSIONS, [organizationId, NOW, lo, Math.min(sessions, lo + chunk - 1), people]);
    log(`  sessions ${Math.min(sessions, lo + chunk - 1)} / ${sessions}`);
  }
  await db.query(INSERT_PEOPLE, [organizationId, NOW]);
  await db.query(INSERT_ACCOUNTS, [organizationId]);
}

async function buildDataset(admin) {
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount > 0;
  if (exists && !process.env.BENCH_REBUILD) {
    execFileSync('node', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const db = new Client({ connectionString: DATABASE_URL });
    await db.connect();
    const { rows } = await db.query(`SELECT id FROM organizations WHERE name = 'Bench analytics'`);
    await db.end();
    if (rows.length === 1) return rows[0].id;
  }
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  execFileSync('node', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const org = cli('org:create', '--name', 'Bench analytics');
  const neighbour = cli('org:create', '--name', 'Bench neighbour');
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const started = Date.now();
  log(`building ${SESSIONS} sessions for ${org.id}`);
  await fillOrganization(db, org.id, SESSIONS, PEOPLE);
  await fillOrganization(db, neighbour.id, NEIGHBOUR_SESSIONS, NEIGHBOUR_SESSIONS / 4);
  await db.query('VACUUM ANALYZE sessions');
  await db.query('VACUUM ANALYZE people');
  await db.query('VACUUM ANALYZE accounts');
  log(`dataset built in ${Math.round((Date.now() - started) / 1000)} s`);
  await db.end();
  return org.id;
}

/** EXPLAIN ANALYZE of the SQL the real repositories send, through a stand-in for the DataSource. */
async function explainPlans(organizationId, queries) {
  const { SessionsRepository } = require('../dist/src/modules/sessions/sessions.repository');
  const { PeopleRepository } = require('../dist/src/modules/people/people.repository');
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  let plan = [];
  const explaining = {
    query: async (sql, params) => {
      const result = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      plan = result.rows.map((r) => r['QUERY PLAN']);
      return [{ total: '0' }];
    },
  };
  const repositories = { sessions: new SessionsRepository(explaining), people: new PeopleRepository(explaining) };
  const out = [];
  for (const { name, list, query } of queries) {
    for (const method of ['listPage', 'count']) {
      await repositories[list][method](organizationId, { limit: 50, offset: 0, ...query });
      out.push(`### ${name}: ${method}\n${plan.join('\n')}\n`);
    }
  }
  await db.end();
  return out.join('\n');
}

async function main() {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  const organizationId = await buildDataset(admin);
  await admin.end();
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const [session] = (await db.query(`SELECT id FROM sessions WHERE organization_id = $1 AND environment = 'production' AND analysis_status = 'analyzed' ORDER BY start_time DESC LIMIT 1 OFFSET 5000`, [organizationId])).rows;
  const [person] = (await db.query(`SELECT id FROM people WHERE organization_id = $1 LIMIT 1 OFFSET 1000`, [organizationId])).rows;
  const counts = (await db.query(`SELECT (SELECT count(*) FROM sessions WHERE organization_id = $1) AS sessions, (SELECT count(*) FROM people WHERE organization_id = $1) AS people, (SELECT count(*) FROM accounts WHERE organization_id = $1) AS accounts`, [organizationId])).rows[0];
  await db.end();
  log('dataset', counts);

  const monthAgo = new Date(Date.parse(NOW) - 30 * 86_400_000);
  const plans = await explainPlans(organizationId, [
    { name: 'sessions, no filter', list: 'sessions', query: {} },
    { name: 'sessions, qualified + high/medium intent', list: 'sessions', query: { qualification_status: ['qualified'], buying_intent: ['high', 'medium'] } },
    { name: 'sessions, last 30 days', list: 'sessions', query: { start_time_from: monthAgo, start_time_to: new Date(NOW) } },
    { name: 'sessions, email contains "user12345"', list: 'sessions', query: { email: 'user12345' } },
    { name: 'sessions, offset 900000', list: 'sessions', query: { offset: 900_000 } },
    { name: 'people, no filter', list: 'people', query: {} },
    { name: 'people, email contains "user4242" + high intent', list: 'people', query: { email: 'user4242', buying_intent: ['high'] } },
    { name: 'people, offset 200000', list: 'people', query: { offset: 200_000 } },
  ]);
  writeFileSync('bench/plans-analytics.txt', `# EXPLAIN ANALYZE at ${counts.sessions} sessions (node bench/analytics.js)\n\n${plans}`);
  log('plans written to bench/plans-analytics.txt');

  const server = spawn('node', ['dist/src/main.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${PORT}/healthz`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { key } = cli('key:create', '--org', organizationId, '--scopes', 'sessions:read,people:read,accounts:read');
    const headers = { authorization: `Bearer ${key}` };
    const random = (n) => Math.floor(Math.random() * n);
    const scenarios = [
      ['GET /sessions', () => '/api/v1/sessions'],
      ['GET /sessions?qualification_status=qualified&buying_intent=high,medium', () => '/api/v1/sessions?qualification_status=qualified&buying_intent=high,medium'],
      ['GET /sessions?start_time_from=<random day>&start_time_to=<+7 days> (count not cached)', () => {
        const from = Date.parse(NOW) - random(300) * 86_400_000 - random(86_400_000);
        return `/api/v1/sessions?start_time_from=${new Date(from).toISOString()}&start_time_to=${new Date(from + 7 * 86_400_000).toISOString()}`;
      }],
      ['GET /sessions?email=<random user id> (count not cached)', () => `/api/v1/sessions?email=user${random(PEOPLE)}@`],
      ['GET /sessions?offset=<random 900000..1000000>', () => `/api/v1/sessions?offset=${900_000 + random(100_000)}`],
      ['GET /sessions/{id}', () => `/api/v1/sessions/${session.id}`],
      ['GET /people', () => '/api/v1/people'],
      ['GET /people?buying_intent=high&qualification_status=qualified', () => '/api/v1/people?buying_intent=high&qualification_status=qualified'],
      ['GET /people?email=<random user id> (count not cached)', () => `/api/v1/people?email=user${random(PEOPLE)}@`],
      ['GET /people?offset=<random 200000..235000>', () => `/api/v1/people?offset=${200_000 + random(35_000)}`],
      ['GET /people/{id}', () => `/api/v1/people/${person.id}`],
      ['GET /accounts/{domain}', () => `/api/v1/accounts/co${10 * random(2000) + 1 + random(9)}.com`],
    ];
    // The raw baseline (bench/raw-sessions-server.js): the same SQL and mapping without the framework.
    const RAW_PORT = 3960;
    const raw = spawn('node', ['bench/raw-sessions-server.js'], { env: { ...env, ORGANIZATION_ID: organizationId, PORT: String(RAW_PORT) }, stdio: ['ignore', 'inherit', 'inherit'] });
    let baseline;
    try {
      for (let i = 0; i < 100 && !(await fetch(`http://127.0.0.1:${RAW_PORT}/api/v1/sessions`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
      const opts = { url: `http://127.0.0.1:${RAW_PORT}/api/v1/sessions`, connections: CONNECTIONS };
      await load({ ...opts, duration: 2 });
      baseline = await load({ ...opts, duration: DURATION });
    } finally {
      raw.kill('SIGTERM');
    }
    const rows = [{ name: 'raw baseline: node:http + pg, same SQL (exact count every request)', rps: Math.round(baseline.requests.average), p50_ms: baseline.latency.p50, p99_ms: baseline.latency.p99, non2xx: baseline.non2xx, errors: baseline.errors }];
    for (const [name, path] of scenarios) {
      const opts = { url: `http://127.0.0.1:${PORT}`, connections: CONNECTIONS, headers, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }] };
      await load({ ...opts, duration: 2 });
      const r = await load({ ...opts, duration: DURATION });
      rows.push({ name, rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
      log(name, rows[rows.length - 1].rps, 'req/s');
    }
    console.table(rows);
    console.log(JSON.stringify({ dataset: counts, connections: CONNECTIONS, seconds: DURATION, rows }));
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
