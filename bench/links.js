#!/usr/bin/env node
// Custom Link jobs and the link list (issue 4): how long a 500-link creation job takes to finish
// with and without thumbnail renders (one API process, one worker process), then the list
// endpoint at BENCH_LINKS links (default 200,000) in one organization.
// Usage: npm run build && node bench/links.js   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_LINKS)
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const autocannon = require('autocannon');
const { Client } = require('pg');

const API_PORT = 3903;
const WORKER_PORT = 3904;
const DB = `engagement_bench_links_${Date.now()}`;
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = ADMIN.replace(/\/[^/]*$/, `/${DB}`);
const LINKS = Number(process.env.BENCH_LINKS || 200_000);
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const env = { ...process.env, DATABASE_URL, REDIS_URL: 'redis://127.0.0.1:6379/14', QUEUE_PREFIX: `bull-${DB}`, NODE_ENV: 'production',
  LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', LINK_MUTATIONS_PER_MINUTE: '1000000', LINK_CREATION_UNITS_PER_HOUR: '100000000',
  LINK_CREATION_UNITS_PER_DAY: '100000000', THUMBNAIL_RENDER_UNITS_PER_HOUR: '100000000', THUMBNAIL_RENDER_UNITS_PER_DAY: '100000000' };

const cli = (...args) => JSON.parse(execFileSync('node', ['dist/src/cli.js', ...args], { env, encoding: 'utf8' }));
const load = (opts) => new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const start = (role, port) => spawn('node', ['dist/src/main.js'], { env: { ...env, APP_ROLE: role, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });

async function waitHealthy(port) {
  for (let i = 0; i < 200; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) return;
    await sleep(50);
  }
  throw new Error(`port ${port} never became healthy`);
}

/** Creates a 500-link job and returns seconds from the request to a terminal status (polled every 50 ms). */
async function timeJob(headers, label, withThumbnails) {
  const links = Array.from({ length: 500 }, (_, i) => ({
    firstName: `Prospect${i}`, lastName: 'Bench', company: `Company ${i % 50}`, email: `p${i}@company${i % 50}.com`, externalId: `${label}-${i}`,
    ...(withThumbnails ? {} : { shareThumbnailUrl: `https://cdn.example.com/${i}.png` }),
  }));
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${API_PORT}/api/v1/custom-links`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': label }, body: JSON.stringify({ links }),
  });
  if (res.status !== 202) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  const { job } = await res.json();
  for (;;) {
    const polled = await (await fetch(`http://127.0.0.1:${API_PORT}/api/v1/custom-link-jobs/${job.id}`, { headers })).json();
    if (!['queued', 'processing'].includes(polled.status)) return { label, status: polled.status, created: polled.createdCount, generated: polled.thumbnailGeneratedCount, seconds: (Date.now() - started) / 1000 };
    await sleep(50);
  }
}

async function main() {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  const servers = [];
  try {
    execFileSync('node', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const org = cli('org:create', '--name', 'Bench links');
    const { key } = cli('key:create', '--org', org.id, '--scopes', 'custom_links:write');
    const headers = { authorization: `Bearer ${key}` };
    servers.push(start('api', API_PORT), start('worker', WORKER_PORT));
    await Promise.all([waitHealthy(API_PORT), waitHealthy(WORKER_PORT)]);

    const jobs = [];
    jobs.push(await timeJob(headers, 'warm-up', false));
    jobs.push(await timeJob(headers, 'provided-thumbnails', false));
    jobs.push(await timeJob(headers, 'rendered-thumbnails', true));
    console.table(jobs);

    const db = new Client({ connectionString: DATABASE_URL });
    await db.connect();
    const [campaign] = (await db.query(`INSERT INTO campaigns (organization_id, id, name) VALUES ($1, gen_random_uuid(), 'Bench campaign') RETURNING id`, [org.id])).rows;
    await db.query(
      `INSERT INTO custom_links (organization_id, id, slug, display_name, active, external_id, first_name, last_name, email, company,
         campaign_id, thumbnail_status, share_thumbnail_url, last_activity_at, created_at, updated_at)
       SELECT $1, gen_random_uuid(), md5('bench' || g), 'Prospect ' || g || ', Company ' || (g % 5000), g % 7 <> 0, 'crm-' || g,
         'Prospect' || g, 'Bench', 'p' || g || '@company' || (g % 5000) || '.com', 'Company ' || (g % 5000),
         CASE WHEN g % 4 = 0 THEN $2::uuid END, 'provided', 'https://cdn.example.com/' || g || '.png',
         CASE WHEN g % 3 = 0 THEN now() - g * interval '7 seconds' END, now() - g * interval '13 seconds', now()
       FROM generate_series(1, $3::int) AS g`,
      [org.id, campaign.id, LINKS],
    );
    await db.query('VACUUM ANALYZE custom_links');
    await db.end();

    const scenarios = [
      ['GET /custom-links (newest 50)', () => '/api/v1/custom-links'],
      ['GET /custom-links?campaign_id=…&active=true', () => `/api/v1/custom-links?campaign_id=${campaign.id}&active=true`],
      ['GET /custom-links?sort=last_activity_at&order=asc', () => '/api/v1/custom-links?sort=last_activity_at&order=asc'],
      ['GET /custom-links?q=<random prospect>', () => `/api/v1/custom-links?q=prospect${Math.floor(Math.random() * LINKS)}`],
      ['GET /custom-links?email=<random exact>', () => `/api/v1/custom-links?email=P${Math.floor(Math.random() * LINKS)}@company1.com`],
      ['GET /custom-links?offset=<random 100000..199000>', () => `/api/v1/custom-links?offset=${100_000 + Math.floor(Math.random() * 99_000)}`],
      [`GET /custom-link-campaigns/{id}/engagement (${LINKS / 4} links filed)`, () => `/api/v1/custom-link-campaigns/${campaign.id}/engagement`],
    ];
    const rows = [];
    for (const [name, path] of scenarios) {
      const opts = { url: `http://127.0.0.1:${API_PORT}`, connections: CONNECTIONS, headers, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }] };
      await load({ ...opts, duration: 2 });
      const r = await load({ ...opts, duration: DURATION });
      rows.push({ name, rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx });
    }
    console.table(rows);
    console.log(JSON.stringify({ links: LINKS, jobs, rows }));
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await sleep(500);
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
