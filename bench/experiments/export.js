#!/usr/bin/env node
// Export benchmark (issue 20 point 5): one organization with N sessions in a scratch database; a
// worker process (the built service, APP_ROLE=worker, in a child process of its own so its memory is
// measured alone) writes a CSV or NDJSON export of the whole session list. Prints the seconds from
// the worker's start to the export's completion, the worker's peak RSS (and its RSS once started,
// before the export), the rows and the stored gzip bytes. The export row is recorded as the API
// records it and taken by the worker's reaper, as an export whose enqueue was lost would be.
//
// Usage: npm run build && node bench/experiments/export.js [--sessions N (1000000)] [--format csv|ndjson (csv)]
// Environment: BENCH_ADMIN_DATABASE_URL [postgres://postgres@127.0.0.1:5432/postgres],
//              BENCH_REDIS_URL [redis://127.0.0.1:6379/14]. Uses a scratch database, dropped at the end.
'use strict';
const { fork } = require('node:child_process');
const { Client } = require('pg');
const { rebuildDerivedTables } = require('../data/derived-tables');
const { sql: query } = require('../run/processes');

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const SESSIONS = Number(arg('sessions', 1_000_000));
const FORMAT = arg('format', 'csv');
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const DB = 'engagement_bench_export';

/** The child: a worker process until the export completes; reports its memory and timing. */
async function worker(url, exportId) {
  const { loadConfig } = require('../../dist/src/config/environment');
  const { createWorkerApp } = require('../../dist/src/worker');
  const config = loadConfig({
    ...process.env,
    APP_ROLE: 'worker',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: url,
    REDIS_URL: REDIS,
    QUEUE_PREFIX: `bench-export-${Date.now()}`,
    JOB_REAPER_INTERVAL_MS: '200',
  });
  const app = await createWorkerApp(config);
  await app.init();
  const idleRssMb = process.memoryUsage().rss / 2 ** 20;
  const started = Date.now();
  let row;
  for (;;) {
    [row] = await query(url, `SELECT status, row_count FROM exports WHERE id = $1`, [exportId]);
    if (row.status === 'completed' || row.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (Date.now() - started) / 1000;
  await app.close();
  process.send({
    status: row.status,
    rows: row.row_count,
    seconds,
    idleRssMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  });
}

async function main() {
  await query(ADMIN, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await query(ADMIN, `CREATE DATABASE ${DB}`);
  const url = new URL(ADMIN);
  url.pathname = `/${DB}`;
  const { DataSource } = require('typeorm');
  const { dataSourceOptions } = require('../../dist/src/database/data-source-options');
  const db = new DataSource(dataSourceOptions(url.toString(), 2));
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });
  await db.destroy();
  const [org] = await query(
    url.toString(),
    `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`,
  );
  const loading = Date.now();
  await query(
    url.toString(),
    `INSERT INTO sessions (organization_id, id, environment, analysis_status, start_time, qualification_status, effective_qualification_status,
       buying_intent, booked_status, tracking, details, fingerprint)
     SELECT $1::uuid, gen_random_uuid(), 'production', 'analyzed', timestamptz '2026-01-01' + n * interval '17 seconds',
       CASE WHEN n % 3 = 0 THEN 'qualified' ELSE 'unqualified' END, CASE WHEN n % 3 = 0 THEN 'qualified' ELSE 'unqualified' END,
       (ARRAY['high', 'medium', 'low', 'none'])[1 + n % 4], CASE WHEN n % 5 = 0 THEN 'booked' ELSE 'not_booked' END,
       '{}'::jsonb, jsonb_build_object('summaryMarkdown', 'Session ' || n || ', "quoted", with a comma'), md5(n::text)
       FROM generate_series(1, $2) n`,
    [org.id, SESSIONS],
  );
  // The count deltas and the email search the service writes with each session.
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  await rebuildDerivedTables(client).finally(() => client.end());
  await query(url.toString(), `ANALYZE sessions`);
  console.error(`loaded ${SESSIONS} sessions in ${((Date.now() - loading) / 1000).toFixed(1)} s`);
  // Recorded a lease ago and never queued: the reaper's first sweep hands it to the queue.
  const [exp] = await query(
    url.toString(),
    `INSERT INTO exports (organization_id, id, resource, format, filters, created_at) VALUES ($1, gen_random_uuid(), 'sessions', $2, '{}', now() - interval '1 hour') RETURNING id`,
    [org.id, FORMAT],
  );
  const child = fork(__filename, ['--child', url.toString(), exp.id], { stdio: 'inherit' });
  const result = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
  });
  const [{ chunks, bytes }] = await query(
    url.toString(),
    `SELECT count(*)::int AS chunks, coalesce(sum(length(data)), 0)::bigint AS bytes FROM export_chunks WHERE export_id = $1`,
    [exp.id],
  );
  console.log(
    JSON.stringify({
      sessions: SESSIONS,
      format: FORMAT,
      ...result,
      seconds: Number(result.seconds.toFixed(1)),
      rowsPerSecond: Math.round(result.rows / result.seconds),
      idleRssMb: Math.round(result.idleRssMb),
      peakRssMb: Math.round(result.peakRssMb),
      gzipMb: Number((Number(bytes) / 2 ** 20).toFixed(1)),
      chunks,
    }),
  );
  await new Promise((resolve) => child.once('exit', resolve));
  await query(ADMIN, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}

const child = process.argv.indexOf('--child');
(child === -1 ? main() : worker(process.argv[child + 1], process.argv[child + 2]).then(() => process.exit(0))).catch(
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
