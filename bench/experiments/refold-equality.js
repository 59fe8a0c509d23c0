#!/usr/bin/env node
// Issue 32 point 7 on the benchmark dataset: do the rollups the fold computes from the carried log
// equal the ones the dataset holds (made by the generator and verified against the service's rules,
// or by today's ingestion)? After `node bench/data.js` has run migration EventLog on the dataset:
//   1. copies what the fold derives (the links' rollup columns, distinct values, session references,
//      campaign engagement, hourly aggregates) into schema refold_check;
//   2. runs `cli events:refold` for every organization (the built tree's CLI) with one worker
//      process of the same tree folding, and times the fold until no batch waits;
//   3. compares every table both ways (EXCEPT ALL) and prints the figures as JSON; exit 1 on any
//      difference. The dataset is left refolded (equal, when the check passes); refold_check is dropped.
// Usage: node bench/experiments/refold-equality.js [--manifest bench/.dataset.json] [--tree DIR]
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const manifest = JSON.parse(readFileSync(arg('--manifest', path.join(__dirname, '..', '.dataset.json')), 'utf8'));
const tree = arg('--tree', path.join(__dirname, '..', '..'));
const MAIN = path.join(tree, 'dist/src/main.js');
const CLI = path.join(tree, 'dist/src/cli.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/14';

/** What the fold derives, as compared: name, the copy's query (a stable column list). */
const DERIVED = {
  // botOpens as the API reads it (docs/api.md §2.7: every reason, a missing one 0): a link whose bot
  // events have no reason holds {} or explicit zeros depending on who wrote it last.
  links: `SELECT organization_id, id, open_observed, bot_open_count,
                 (SELECT jsonb_object_agg(r, coalesce((bot_opens->>r)::int, 0))
                    FROM unnest(ARRAY['user_agent', 'prefetch', 'head_request', 'scanner']) AS r) AS bot_opens, internal_open_count, load_count, page_view_count,
                 ephemeral_page_view_count, persistent_visitor_count, session_count, started_session_count, engaged_session_count,
                 first_opened_at, last_opened_at, first_started_at, first_engaged_at, first_lead_submitted_at, first_meeting_clicked_at,
                 first_meeting_booked_at, last_activity_at, last_activity_type, last_activity_event_id, stage FROM custom_links`,
  distinct_values: `SELECT * FROM link_distinct_values`,
  sessions: `SELECT * FROM link_sessions`,
  campaigns: `SELECT * FROM campaign_engagement`,
  hours: `SELECT * FROM link_event_hours`,
};

async function main() {
  const db = new Client({ connectionString: manifest.databaseUrl });
  await db.connect();
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: manifest.databaseUrl, REDIS_URL, LOG_LEVEL: 'warn' };
  try {
    await db.query(`DROP SCHEMA IF EXISTS refold_check CASCADE; CREATE SCHEMA refold_check`);
    const rows = {};
    for (const [name, query] of Object.entries(DERIVED)) {
      await db.query(`CREATE TABLE refold_check.${name} AS ${query}`);
      rows[name] = (await db.query(`SELECT count(*)::int AS n FROM refold_check.${name}`)).rows[0].n;
    }
    const [{ events }] = (await db.query(`SELECT count(*)::int AS events FROM link_events`)).rows;
    const worker = spawn(process.execPath, [MAIN], {
      env: { ...env, APP_ROLE: 'worker', PORT: '3977' },
      stdio: 'inherit',
    });
    try {
      const started = Date.now();
      const organizations = (await db.query(`SELECT id FROM organizations ORDER BY id`)).rows;
      let queued = 0;
      for (const { id } of organizations) {
        const out = execFileSync(process.execPath, [CLI, 'events:refold', '--org', id], { env, cwd: tree });
        queued += JSON.parse(out.toString()).queuedEvents;
      }
      const queuedMs = Date.now() - started;
      for (;;) {
        const [{ waiting }] = (await db.query(`SELECT count(*)::int AS waiting FROM link_event_batches`)).rows;
        if (waiting === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const foldMs = Date.now() - started - queuedMs;
      const differences = {};
      for (const [name, query] of Object.entries(DERIVED)) {
        const [{ missing }] = (
          await db.query(`SELECT count(*)::int AS missing FROM (TABLE refold_check.${name} EXCEPT ALL ${query}) d`)
        ).rows;
        const [{ extra }] = (
          await db.query(`SELECT count(*)::int AS extra FROM (${query} EXCEPT ALL TABLE refold_check.${name}) d`)
        ).rows;
        differences[name] = { rows: rows[name], missing, extra };
      }
      const mismatches = Object.values(differences).reduce((sum, d) => sum + d.missing + d.extra, 0);
      const result = {
        database: manifest.database,
        events,
        queued,
        queue_seconds: Math.round(queuedMs / 100) / 10,
        fold_seconds: Math.round(foldMs / 100) / 10,
        fold_events_per_s: Math.round(queued / (foldMs / 1000)),
        differences,
        mismatches,
      };
      console.log(JSON.stringify(result, null, 2));
      process.exitCode = mismatches === 0 ? 0 : 1;
    } finally {
      worker.kill('SIGTERM');
    }
    await db.query(`DROP SCHEMA refold_check CASCADE`);
  } finally {
    await db.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
