#!/usr/bin/env node
// Event ingestion throughput (issue 5): POST /api/v1/events with batches of 500 events over 1,000
// links (every rollup included: dedup insert, distinct values, per-link merge, session references),
// through the built API (APP_ROLE=api). Events/s = requests/s x 500.
// Usage: npm run build && node bench/events.js   (BENCH_SECONDS, BENCH_CONNECTIONS)
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const autocannon = require('autocannon');
const { Client } = require('pg');

const PORT = 3905;
const DB = `engagement_bench_events_${Date.now()}`;
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = ADMIN.replace(/\/[^/]*$/, `/${DB}`);
const DURATION = Number(process.env.BENCH_SECONDS || 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 6);
const BATCH = 500;
const LINKS = 1000;
const TYPES = ['page_view', 'page_view', 'page_view', 'open', 'session_started', 'session_engaged', 'session_ended', 'lead_submitted', 'meeting_clicked', 'meeting_booked'];
const env = { ...process.env, DATABASE_URL, REDIS_URL: 'redis://127.0.0.1:6379/14', QUEUE_PREFIX: `bull-${DB}`, PORT: String(PORT), APP_ROLE: 'api',
  NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' };

const cli = (...args) => JSON.parse(execFileSync('node', ['dist/src/cli.js', ...args], { env, encoding: 'utf8' }));
const load = (opts) => new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));

async function main() {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  let server;
  try {
    execFileSync('node', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const org = cli('org:create', '--name', 'Bench events');
    const { key } = cli('key:create', '--org', org.id, '--scopes', 'events:write');
    const db = new Client({ connectionString: DATABASE_URL });
    await db.connect();
    const links = (await db.query(
      `INSERT INTO custom_links (organization_id, id, slug, display_name, thumbnail_status)
       SELECT $1, gen_random_uuid(), md5('bench' || g), 'Link ' || g, 'provided' FROM generate_series(1, $2::int) AS g RETURNING id`,
      [org.id, LINKS],
    )).rows.map((r) => r.id);
    server = spawn('node', ['dist/src/main.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    for (let i = 0; i < 200 && !(await fetch(`http://127.0.0.1:${PORT}/healthz`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 50));

    const pick = (items) => items[Math.floor(Math.random() * items.length)];
    const batch = () => {
      const now = Date.now();
      return JSON.stringify({
        events: Array.from({ length: BATCH }, () => ({
          eventId: randomUUID(),
          type: pick(TYPES),
          customLinkId: pick(links),
          occurredAt: new Date(now - Math.floor(Math.random() * 86_400_000)).toISOString(),
          pageViewId: randomUUID(),
          ...(Math.random() < 0.7 ? { visitorId: `v${Math.floor(Math.random() * 5000)}` } : {}),
          ...(Math.random() < 0.5 ? { sessionId: randomUUID() } : {}),
        })),
      });
    };
    const opts = {
      url: `http://127.0.0.1:${PORT}/api/v1/events`,
      method: 'POST',
      connections: CONNECTIONS,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: batch() }) }],
    };
    await load({ ...opts, duration: 3 });
    const r = await load({ ...opts, duration: DURATION });
    const stored = (await db.query(`SELECT count(*)::int AS n FROM link_events WHERE organization_id = $1`, [org.id])).rows[0].n;
    await db.end();
    const row = { batches_per_s: r.requests.average, events_per_s: Math.round(r.requests.average * BATCH), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, stored_events: stored };
    console.table([row]);
    console.log(JSON.stringify({ connections: CONNECTIONS, seconds: DURATION, batch: BATCH, links: LINKS, ...row }));
  } finally {
    if (server) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
