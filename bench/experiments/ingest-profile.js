#!/usr/bin/env node
// Where the time of event ingestion goes, in figures that do not depend on the machine's load.
//
//   node bench/experiments/ingest-profile.js explain [--manifest FILE] [--batch 500] [--redis URL]
//     One realistic batch through the compiled EventsService.apply inside a transaction that is rolled
//     back: every statement it sends runs first under EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) in a
//     savepoint (rolled back), then for real; prints each run's backend CPU (/proc/PID/schedstat), rows,
//     buffers and triggers. Also the CPU of validating a batch body: class-validator, the fast parser.
//   node bench/experiments/ingest-profile.js load [--manifest FILE] [--seconds 20] [--warmup 3] [--connections 6] [--redis URL]
//     Starts the built API (APP_ROLE=api, as bench/run.js runs it) and posts batches from
//     `connections` loops: events/s, latency, CPU ms per 1,000 events of the API process and of the
//     PostgreSQL backends serving the manifest's database (/proc/PID/schedstat), rows written per
//     1,000 events (pg_stat_user_tables), and lock waits
//     (pg_stat_activity sampled every 10 ms: the mean number of those backends waiting on a lock).
//     API_NODE_OPTIONS adds to the API's NODE_OPTIONS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
//     --without links|rollups: the same load with the link merge, or every rollup (link merge,
//     distinct values, session references), made a no-op in the API (bench/experiments/ingest-without.js), to
//     measure what each part costs. When the server runs without autovacuum (this machine's CI
//     configuration), the engagement tables are vacuumed first, so that earlier runs' dead rows do
//     not weigh on this one.
// Needs `npm run build`. Writes events to the manifest's organization (unique ids), like bench/run.js.
'use strict';
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { Client } = require('pg');
const { serviceEnv: runnerServiceEnv, sql } = require('../run/processes');
const { eventBodies } = require('../run/requests');

const ROOT = path.join(__dirname, '../..');
const DIST = path.join(ROOT, 'dist/src');
/** The tables event ingestion writes. */
const ENGAGEMENT_TABLES = [
  'link_events',
  'link_distinct_values',
  'link_sessions',
  'custom_links',
  'campaign_engagement',
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function options(argv) {
  const [mode, ...rest] = argv;
  const given = {};
  for (let i = 0; i < rest.length; i += 2) given[rest[i].replace(/^--/, '')] = rest[i + 1];
  if (!['explain', 'load'].includes(mode))
    throw new Error('usage: node bench/experiments/ingest-profile.js explain|load [--manifest FILE] ...');
  if (given.without !== undefined && !['links', 'rollups'].includes(given.without))
    throw new Error('--without takes links or rollups');
  return {
    mode,
    manifest: path.resolve(given.manifest ?? path.join(__dirname, '..', '.dataset.json')),
    batch: Number(given.batch ?? 500),
    seconds: Number(given.seconds ?? 20),
    warmup: Number(given.warmup ?? 3),
    connections: Number(given.connections ?? 6),
    without: given.without ?? null,
    redis: given.redis ?? 'redis://127.0.0.1:6379/11',
  };
}

/** The runner's service environment (every limit far above the load), with long database timeouts. */
function serviceEnv(manifest, opts, extra = {}) {
  return {
    ...runnerServiceEnv(manifest, opts, `ingest-profile-${process.pid}`),
    // A loaded machine must slow the run down, not fail it.
    DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    DATABASE_LOCK_TIMEOUT_MS: '60000',
    ...extra,
  };
}

// ---------------------------------------------------------------- explain

const round = (ms) => Math.round(ms * 100) / 100;

/** The plan's buffers and the triggers' times, summed over its nodes. */
function summarize(plan) {
  const sum = { hit: 0, read: 0, dirtied: 0, written: 0 };
  const top = plan.Plan;
  sum.hit = top['Shared Hit Blocks'] ?? 0;
  sum.read = top['Shared Read Blocks'] ?? 0;
  sum.dirtied = top['Shared Dirtied Blocks'] ?? 0;
  sum.written = top['Shared Written Blocks'] ?? 0;
  const triggers = (plan.Triggers ?? []).map((t) => `${t['Trigger Name']} ×${t.Calls}`);
  return {
    rows: top['Actual Rows'],
    buffers: sum,
    wal: { records: top['WAL Records'] ?? 0, fpi: top['WAL FPI'] ?? 0, kb: Math.round((top['WAL Bytes'] ?? 0) / 1024) },
    triggers,
  };
}

/**
 * A transaction manager whose every query runs first under EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING OFF) in
 * a savepoint (rolled back), then for real; its backend's CPU time is measured around both runs: the
 * explained one meets the pages as the batch finds them, the real one finds them in shared buffers.
 */
function explainingManager(manager, backendPid, report) {
  return new Proxy(manager, {
    get(target, prop) {
      if (prop !== 'query') return Reflect.get(target, prop);
      return async (sql, params) => {
        await target.query('SAVEPOINT explained');
        const first = cpuMs(backendPid);
        const [
          {
            'QUERY PLAN': [plan],
          },
        ] = await target.query(`EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING OFF, FORMAT JSON) ${sql}`, params);
        const explainedCpu = cpuMs(backendPid) - first;
        await target.query('ROLLBACK TO SAVEPOINT explained');
        const before = cpuMs(backendPid);
        const result = await target.query(sql, params);
        report.push({
          sql: sql.replace(/\s+/g, ' ').trim().slice(0, 90),
          explainedCpu,
          cpu: cpuMs(backendPid) - before,
          ...summarize(plan),
        });
        return result;
      };
    },
  });
}

/** The batch a body of the benchmark's generator is, resolved as EventsService.ingest resolves it. */
function newEvents(body) {
  const { newEventOf } = require(path.join(DIST, 'modules/engagement/events.service'));
  return JSON.parse(body).events.map((e) =>
    newEventOf({ ...e, occurredAt: new Date(e.occurredAt) }, e.customLinkId, () => null),
  );
}

/** CPU ms of `work` per call: the mean of `runs` calls after `warm` unmeasured ones. */
function cpuPerCall(work, runs = 20, warm = 5) {
  for (let i = 0; i < warm; i++) work(i);
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) work(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / runs;
}

/**
 * Request validation of one body, CPU ms: the route's RequestValidator (class-transformer and
 * class-validator, as for a body whose bytes were not inspected) and the DTO's fast parser.
 */
function validationCost(bodies) {
  const { RequestValidator } = require(path.join(DIST, 'common/validation/request-validator'));
  const fastParserOf = (dto) => {
    try {
      return require(path.join(DIST, 'common/validation/fast-parse.decorator')).fastParserOf(dto);
    } catch {
      return undefined; // a build from before the fast parser
    }
  };
  const { EngagementController } = require(path.join(DIST, 'modules/engagement/engagement.controller'));
  const { EventsRequest } = require(path.join(DIST, 'modules/engagement/dto/events.request'));
  const validator = new RequestValidator();
  const handler = EngagementController.prototype.ingest;
  const contextOf = (req) => ({
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => EngagementController,
    switchToHttp: () => ({ getRequest: () => req }),
  });
  const parseMs = cpuPerCall((i) => JSON.parse(bodies[i % bodies.length]));
  const fast = fastParserOf(EventsRequest);
  return {
    parseMs,
    validateMs:
      cpuPerCall((i) =>
        validator.validate(
          contextOf({ body: JSON.parse(bodies[i % bodies.length]), params: {}, query: {}, headers: {} }),
        ),
      ) - parseMs,
    fastMs: fast ? cpuPerCall((i) => fast(JSON.parse(bodies[i % bodies.length]))) - parseMs : null,
  };
}

async function explain(opts, manifest) {
  Object.assign(process.env, serviceEnv(manifest, opts, { APP_ROLE: 'api' }));
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { loadConfig } = require(path.join(DIST, 'config/environment'));
  const { AppModule } = require(path.join(DIST, 'app.module'));
  const { EventsService } = require(path.join(DIST, 'modules/engagement/events.service'));
  const { DataSource } = require('typeorm');
  const app = await NestFactory.createApplicationContext(AppModule.forRole(loadConfig()), {
    logger: ['error', 'warn'],
  });
  try {
    const service = app.get(EventsService);
    const db = app.get(DataSource);
    const generate = eventBodies({
      linkIds: manifest.sample.linkIds,
      tag: `explain-${Date.now().toString(36)}`,
      batch: opts.batch,
    });
    const bodies = Array.from({ length: 10 }, generate);
    const events = newEvents(bodies[0]);
    const runner = db.createQueryRunner();
    await runner.connect();
    const report = [];
    try {
      const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
      await runner.startTransaction();
      const realDb = service.db;
      service.db = { transaction: (work) => work(explainingManager(runner.manager, pid, report)) };
      const started = process.hrtime.bigint();
      try {
        await service.apply(manifest.organizationId, events);
      } finally {
        service.db = realDb;
      }
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      await runner.rollbackTransaction();
      console.log(
        `one batch of ${events.length} events, ${report.length} statements (each run twice: explained, then for real), wall ${round(wallMs)} ms`,
      );
      console.log(
        'backend CPU ms: explained run (first touch) | real run (pages in shared buffers) | rows | shared buffers hit/read/dirtied | WAL records/full-page images/KiB (explained run) | statement\n',
      );
      let explained = 0;
      let cpu = 0;
      for (const s of report) {
        explained += s.explainedCpu;
        cpu += s.cpu;
        console.log(
          `${round(s.explainedCpu).toString().padStart(7)} | ${round(s.cpu).toString().padStart(7)} | ${String(s.rows).padStart(4)} | ${s.buffers.hit}/${s.buffers.read}/${s.buffers.dirtied} | ${s.wal.records}/${s.wal.fpi}/${s.wal.kb} | ${s.sql}`,
        );
        for (const t of s.triggers) console.log(`          trigger ${t}`);
      }
      console.log(
        `${round(explained).toString().padStart(7)} | ${round(cpu).toString().padStart(7)} | all statements (triggers included)\n`,
      );
    } finally {
      await runner.release();
    }
    if (opts.batch > 1000) return; // the route takes 1,000 events at most
    const { parseMs, validateMs, fastMs } = validationCost(bodies);
    console.log(
      `request body of ${opts.batch} events (${Math.round(bodies[0].length / 1024)} KiB), CPU ms: JSON.parse ${round(parseMs)}, ` +
        `class-validator ${round(validateMs)}, fast parser ${fastMs === null ? '–' : round(fastMs)}`,
    );
  } finally {
    await app.close();
  }
}

// ---------------------------------------------------------------- load

/**
 * CPU time of a process in ms (null once it is gone): its threads' time on a CPU as the scheduler
 * counts it (/proc/PID/schedstat, nanoseconds; utime+stime of /proc/PID/stat counts 10 ms ticks).
 */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return null;
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startApi(manifest, opts) {
  const port = await freePort();
  const nodeOptions = `--max-old-space-size=512 --max-semi-space-size=32 ${process.env.API_NODE_OPTIONS ?? ''}`.trim();
  const without = opts.without === null ? {} : { INGEST_WITHOUT: opts.without };
  const preload = opts.without === null ? '' : ` --require ${path.join(__dirname, 'ingest-without.js')}`;
  const env = serviceEnv(manifest, opts, {
    APP_ROLE: 'api',
    PORT: String(port),
    NODE_OPTIONS: nodeOptions + preload,
    ...without,
  });
  const child = spawn(process.execPath, [path.join(DIST, 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode})`);
    if (
      await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, origin };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start within 60 s');
}

/** Posts batches from `connections` loops until `until()`; returns each request's latency. */
async function post(origin, headers, generate, connections, until) {
  const latencies = [];
  let failure = null;
  const loop = async () => {
    while (!until() && !failure) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/v1/events`, { method: 'POST', headers, body: generate() });
      const body = await res.text();
      if (res.status !== 202) failure = `${res.status} ${body.slice(0, 300)}`;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  if (failure) throw new Error(`POST /api/v1/events answered ${failure}`);
  return latencies;
}

/** Samples the database's backends every 10 ms: CPU at start and end, and how many wait on a lock. */
async function watchBackends(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const own = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const list = `SELECT pid, wait_event_type, wait_event FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> ${own}`;
  const start = new Map();
  const last = new Map();
  let samples = 0;
  let waiting = 0;
  const waits = {};
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await db.query(list);
      samples++;
      for (const row of rows) {
        if (!start.has(row.pid)) start.set(row.pid, cpuMs(row.pid) ?? 0);
        if (row.wait_event_type === 'Lock') {
          waiting++;
          waits[row.wait_event] = (waits[row.wait_event] ?? 0) + 1;
        }
      }
      await sleep(10);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      for (const pid of start.keys()) last.set(pid, cpuMs(pid) ?? start.get(pid));
      await db.end();
      let cpu = 0;
      for (const [pid, begin] of start) cpu += last.get(pid) - begin;
      return { cpuMs: cpu, backends: start.size, meanLockWaiters: samples > 0 ? waiting / samples : 0, waits };
    },
  };
}

/** Rows written to the engagement tables (pg_stat_user_tables; backends report within a second or so). */
async function tableWrites(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables
        WHERE relname = ANY($1)`,
      [ENGAGEMENT_TABLES],
    );
    const [wal] = (
      await db.query(
        `SELECT wal_records::float8 AS records, wal_fpi::float8 AS fpi, wal_bytes::float8 AS bytes FROM pg_stat_wal`,
      )
    ).rows;
    const [checkpoints] = (
      await db.query(`SELECT (checkpoints_timed + checkpoints_req)::int AS n FROM pg_stat_bgwriter`)
    ).rows;
    return { ...Object.fromEntries(rows.map((r) => [r.relname, r])), wal, checkpoints: checkpoints.n };
  } finally {
    await db.end();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** VACUUMs the engagement tables when the server's autovacuum is off; says whether it did. */
async function vacuumWithoutAutovacuum(databaseUrl) {
  const [{ autovacuum }] = await sql(databaseUrl, `SELECT current_setting('autovacuum') AS autovacuum`);
  if (autovacuum === 'on') return false;
  await sql(databaseUrl, `VACUUM ${ENGAGEMENT_TABLES.join(', ')}`);
  return true;
}

async function load(opts, manifest) {
  const vacuumed = await vacuumWithoutAutovacuum(manifest.databaseUrl);
  const { child, origin } = await startApi(manifest, opts);
  try {
    const headers = { authorization: `Bearer ${manifest.apiKey}`, 'content-type': 'application/json' };
    const generate = eventBodies({
      linkIds: manifest.sample.linkIds,
      tag: `profile-${Date.now().toString(36)}-${process.pid}`,
      batch: opts.batch,
    });
    const warmEnd = Date.now() + opts.warmup * 1000;
    await post(origin, headers, generate, opts.connections, () => Date.now() >= warmEnd);
    await sleep(1500);
    const writesBefore = await tableWrites(manifest.databaseUrl);
    const backends = await watchBackends(manifest.databaseUrl);
    const apiStart = cpuMs(child.pid);
    const started = performance.now();
    const end = Date.now() + opts.seconds * 1000;
    const latencies = await post(origin, headers, generate, opts.connections, () => Date.now() >= end);
    const seconds = (performance.now() - started) / 1000;
    const apiCpu = cpuMs(child.pid) - apiStart;
    const pg = await backends.stop();
    await sleep(1500);
    const writesAfter = await tableWrites(manifest.databaseUrl);
    const events = latencies.length * opts.batch;
    const rowsPer1000 = (table, kind) =>
      Math.round(((writesAfter[table][kind] - writesBefore[table][kind]) / events) * 1000);
    latencies.sort((a, b) => a - b);
    const perThousand = (ms) => Math.round((ms / events) * 1000 * 10) / 10;
    const result = {
      without: opts.without,
      vacuumed_before: vacuumed,
      batches: latencies.length,
      events,
      seconds: round(seconds),
      events_per_s: Math.round(events / seconds),
      p50_ms: Math.round(percentile(latencies, 50)),
      p99_ms: Math.round(percentile(latencies, 99)),
      max_ms: Math.round(latencies[latencies.length - 1]),
      api_cpu_ms_per_1000_events: perThousand(apiCpu),
      postgres_cpu_ms_per_1000_events: perThousand(pg.cpuMs),
      postgres_backends: pg.backends,
      mean_backends_waiting_on_locks: round(pg.meanLockWaiters),
      lock_waits_by_event: pg.waits,
      // The server's whole WAL (other databases' writes included, if any ran meanwhile).
      wal_per_1000_events: {
        mb: Math.round((((writesAfter.wal.bytes - writesBefore.wal.bytes) / events) * 1000) / 1e4) / 100,
        full_page_images: Math.round(((writesAfter.wal.fpi - writesBefore.wal.fpi) / events) * 1000),
        records: Math.round(((writesAfter.wal.records - writesBefore.wal.records) / events) * 1000),
      },
      checkpoints: writesAfter.checkpoints - writesBefore.checkpoints,
      rows_written_per_1000_events: {
        link_events: rowsPer1000('link_events', 'ins'),
        link_distinct_values: rowsPer1000('link_distinct_values', 'ins'),
        link_sessions: rowsPer1000('link_sessions', 'ins') + rowsPer1000('link_sessions', 'upd'),
        custom_links_updated: rowsPer1000('custom_links', 'upd'),
        campaign_engagement_updated: rowsPer1000('campaign_engagement', 'upd'),
      },
      connections: opts.connections,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  }
}

async function main() {
  const opts = options(process.argv.slice(2));
  const manifest = JSON.parse(readFileSync(opts.manifest, 'utf8'));
  if (opts.mode === 'explain') await explain(opts, manifest);
  else await load(opts, manifest);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
