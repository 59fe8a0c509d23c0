#!/usr/bin/env node
// Issue 32 point 5: what one fold of 20,000 events costs, and what the same derivation costs as
// set-based SQL inside PostgreSQL (the floor: no rows to the worker and back).
//
//   node bench/experiments/fold-profile.js [--manifest bench/.dataset.json] [--rounds 3] [--events 20000] [--redis URL]
//
// Each round appends `events` events in 1,000-event batches through the compiled EventsService (the
// bench's event shape: bench/run/requests.js), then:
//   1. floor: the fold's derivations as four set-based statements over the pending batches (distinct
//      values, session references, hourly aggregates, per-link statistics) in a transaction that is
//      rolled back; the backend's CPU (/proc/PID/schedstat) per statement;
//   2. fold: the compiled EventFold.foldOnce, the worker's CPU (process.cpuUsage) and the database's
//      backends' CPU beside it.
// Prints ms of CPU per 1,000 events for each. Needs `npm run build` and an idle machine; writes
// events to the manifest's organization (unique ids) and folds them, as bench/run.js does.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { eventBodies } = require('../run/requests');

const DIST = path.join(__dirname, '../..', 'dist/src');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const manifest = JSON.parse(readFileSync(arg('--manifest', path.join(__dirname, '..', '.dataset.json')), 'utf8'));
const rounds = Number(arg('--rounds', '3'));
const total = Number(arg('--events', '20000'));

/** CPU ms of a process: its threads' time on a CPU (/proc/PID/schedstat, ns). */
function cpuMs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

/** The CPU of every client backend of the database but `own`, summed (ms). */
async function backendsCpu(client, own) {
  const { rows } = await client.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> $1`,
    [own],
  );
  let ms = 0;
  for (const row of rows) ms += cpuMs(row.pid);
  return { ms, pids: rows.map((r) => r.pid) };
}

const EVENTS = `SELECT custom_link_id AS l, type, occurred_at, page_view_id, visitor_id, session_id, bot, internal_reason, country,
                       device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, event_id
                  FROM link_events WHERE organization_id = $1 AND batch_id = ANY($2::uuid[])
                   AND received_at >= (SELECT min(received_at) FROM link_event_batches WHERE organization_id = $1 AND batch_id = ANY($2::uuid[]))`;
const HUMAN = `human AS (SELECT * FROM ev WHERE NOT bot AND internal_reason IS NULL)`;
const CONVERSION = `('lead_submitted', 'meeting_clicked', 'meeting_booked')`;

/** The fold's derivations as set-based statements (the floor). */
const FLOOR = {
  distinct: `
    WITH ev AS (${EVENTS}), ${HUMAN},
    vals AS (
      SELECT l, 'session' AS kind, session_id::text AS value FROM human WHERE session_id IS NOT NULL
      UNION ALL SELECT l, 'page_view', page_view_id FROM human WHERE type = 'page_view' AND page_view_id IS NOT NULL
      UNION ALL SELECT l, 'visitor', visitor_id FROM human WHERE type = 'page_view' AND visitor_id IS NOT NULL
      UNION ALL SELECT l, 'ephemeral_page_view', page_view_id FROM human WHERE type = 'page_view' AND visitor_id IS NULL AND page_view_id IS NOT NULL
      UNION ALL SELECT l, 'started_session', session_id::text FROM human WHERE type = 'session_started' AND session_id IS NOT NULL
      UNION ALL SELECT l, 'engaged_session', session_id::text FROM human WHERE type = 'session_engaged' AND session_id IS NOT NULL),
    ins AS (INSERT INTO link_distinct_values (organization_id, custom_link_id, kind, value)
            SELECT DISTINCT $1::uuid, l, kind, value FROM vals ORDER BY 2, 3, 4 ON CONFLICT DO NOTHING RETURNING custom_link_id, kind)
    SELECT custom_link_id, kind, count(*)::int AS n FROM ins GROUP BY 1, 2`,
  sessions: `
    WITH ev AS (${EVENTS}), ${HUMAN}
    INSERT INTO link_sessions (organization_id, custom_link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at)
    SELECT $1, l, session_id,
           min(occurred_at) FILTER (WHERE type IN ('open', 'page_view') OR type IN ${CONVERSION}),
           min(occurred_at) FILTER (WHERE type = 'session_started' OR type IN ${CONVERSION}),
           min(occurred_at) FILTER (WHERE type = 'session_engaged' OR type IN ${CONVERSION}),
           min(occurred_at) FILTER (WHERE type = 'session_ended'), min(occurred_at)
      FROM human WHERE session_id IS NOT NULL GROUP BY l, session_id ORDER BY l, session_id
    ON CONFLICT (organization_id, custom_link_id, session_id) DO UPDATE SET
      opened_at = LEAST(link_sessions.opened_at, EXCLUDED.opened_at), started_at = LEAST(link_sessions.started_at, EXCLUDED.started_at),
      engaged_at = LEAST(link_sessions.engaged_at, EXCLUDED.engaged_at), ended_at = LEAST(link_sessions.ended_at, EXCLUDED.ended_at),
      first_seen_at = LEAST(link_sessions.first_seen_at, EXCLUDED.first_seen_at)`,
  hours: `
    WITH ev AS (${EVENTS})
    INSERT INTO link_event_hours AS h (organization_id, custom_link_id, hour, type, bot, internal, country, device_type, browser, os,
                                       referrer_domain, utm_source, utm_medium, utm_campaign, events)
    SELECT $1, l, date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', type, bot, internal_reason IS NOT NULL, country,
           device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, count(*)
      FROM ev GROUP BY 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 ORDER BY 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
    ON CONFLICT ON CONSTRAINT link_event_hours_key DO UPDATE SET events = h.events + EXCLUDED.events`,
  links: `
    WITH ev AS (${EVENTS}), ${HUMAN}
    SELECT l, count(*) FILTER (WHERE type = 'page_view') AS loads, min(occurred_at) FILTER (WHERE type IN ('open', 'page_view')) AS first_opened,
           max(occurred_at) FILTER (WHERE type IN ('open', 'page_view')) AS last_opened,
           min(occurred_at) FILTER (WHERE type = 'session_started' OR type IN ${CONVERSION}) AS first_started,
           min(occurred_at) FILTER (WHERE type = 'session_engaged' OR type IN ${CONVERSION}) AS first_engaged,
           min(occurred_at) FILTER (WHERE type = 'lead_submitted') AS lead, min(occurred_at) FILTER (WHERE type = 'meeting_clicked') AS clicked,
           min(occurred_at) FILTER (WHERE type = 'meeting_booked') AS booked,
           max(ARRAY[to_char(occurred_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'), event_id COLLATE "C", type]) AS last_activity
      FROM human GROUP BY l`,
};

async function main() {
  process.env.DATABASE_URL = manifest.databaseUrl;
  process.env.REDIS_URL = arg('--redis', 'redis://127.0.0.1:6379/11');
  process.env.APP_ROLE = 'api';
  process.env.LOG_LEVEL = 'warn';
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { loadConfig } = require(path.join(DIST, 'config/environment'));
  const { AppModule } = require(path.join(DIST, 'app.module'));
  const { EventsService, newEventOf } = require(path.join(DIST, 'modules/engagement/events.service'));
  const { EventFold } = require(path.join(DIST, 'modules/engagement/event-fold.service'));
  const { BlockList } = require('node:net');
  const NO_INTERNAL_TRAFFIC = { ranges: new BlockList(), visitorIds: new Set(), userAgentContains: [] };
  const app = await NestFactory.createApplicationContext(AppModule.forRole(loadConfig()), {
    logger: ['error', 'warn'],
  });
  const client = new Client({ connectionString: manifest.databaseUrl });
  await client.connect();
  const own = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const org = manifest.organizationId;
  try {
    const events = app.get(EventsService);
    const fold = app.get(EventFold);
    while ((await fold.foldOnce(org)).events > 0); // what an earlier run left
    const generate = eventBodies({
      linkIds: manifest.sample.linkIds,
      tag: `fold-profile-${Date.now().toString(36)}`,
      batch: 1000,
    });
    for (let round = 1; round <= rounds; round++) {
      for (let n = 0; n < total / 1000; n++) {
        const parsed = JSON.parse(generate()).events.map((e) =>
          newEventOf({ ...e, occurredAt: new Date(e.occurredAt) }, e.customLinkId, () => null, NO_INTERNAL_TRAFFIC),
        );
        await events.apply(org, parsed);
      }
      const { rows } = await client.query(`SELECT batch_id FROM link_event_batches WHERE organization_id = $1`, [org]);
      const batches = rows.map((r) => r.batch_id);
      const per1000 = (ms) => Math.round((ms * 1000 * 10) / total) / 10;
      const floor = {};
      await client.query('BEGIN');
      for (const [name, sql] of Object.entries(FLOOR)) {
        const before = cpuMs(own);
        const result = await client.query(sql, [org, batches]);
        floor[name] = { cpu_ms_per_1000: per1000(cpuMs(own) - before), rows: result.rowCount };
      }
      await client.query('ROLLBACK');
      const pg0 = await backendsCpu(client, own);
      const node0 = process.cpuUsage();
      const started = process.hrtime.bigint();
      let folded = 0;
      for (let outcome = await fold.foldOnce(org); outcome.events > 0; outcome = await fold.foldOnce(org))
        folded += outcome.events;
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const node = process.cpuUsage(node0);
      const pg1 = await backendsCpu(client, own);
      const pgMs = pg1.pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - pg0.ms; // backends present before and after
      console.log(
        JSON.stringify({
          round,
          events: folded,
          floor_pg_cpu_ms_per_1000: floor,
          floor_total: per1000(Object.values(floor).reduce((s, f) => s + (f.cpu_ms_per_1000 * total) / 1000, 0)),
          fold: {
            wall_ms: Math.round(wallMs),
            worker_cpu_ms_per_1000: per1000((node.user + node.system) / 1000),
            pg_cpu_ms_per_1000: per1000(pgMs),
          },
        }),
      );
    }
  } finally {
    await client.end();
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
