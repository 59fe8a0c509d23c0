#!/usr/bin/env node
// The benchmark runner. On the dataset that bench/data.js built (its manifest), it starts the built
// service as an API process (and a worker process for the job scenarios) plus the raw sessions
// baseline (bench/raw-sessions-server.js), loads each scenario with autocannon (a scenario with a
// baseline in ABBA order: service, raw, raw, service, each side the mean of its two runs), checks the
// targets, and writes bench/results/latest.json and the "latest" section of bench/RESULTS.md.
//
// Usage: npm run bench            (= npm run build && node bench/run.js)
//        npm run bench:smoke      (CI: tiny dataset, ~1 s per scenario, bench/results/smoke.json)
//   node bench/run.js [--seconds 10] [--warmup 3] [--connections 20] [--only <name substring>]
//                     [--manifest bench/.dataset.json] [--out bench/results/latest.json]
//                     [--job-links 500] [--redis redis://127.0.0.1:6379/14] [--smoke] [--check]
//   --smoke   the smoke manifest (bench/.dataset.engagement_bench_smoke.json), 1 s per scenario, no
//             warm-up, 50-link jobs, results in bench/results/smoke.json; RESULTS.md is not touched
//             and targets are printed, not enforced.
//   --check   (full runs) exit 1 when a target is missed.
// RESULTS.md's latest section is rewritten only by a full run (no --smoke, no --only) without failures.
// Exit status: 1 when a scenario answered a non-2xx or failed, a job did not complete, or the run
// itself failed; 2 for bad options. Needs `npm run build` (dist/), PostgreSQL and Redis.
// The Redis database (--redis, default db 14) is flushed at the start: keep it for benchmarks.
// The job scenarios run in a fresh organization, deleted at the end; event ingestion adds its events
// to the manifest's organization (unique event ids per run).
'use strict';
const { spawn, execFile } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const autocannon = require('autocannon');
const Redis = require('ioredis');
const { Client } = require('pg');
const { EVENT_BATCH, eventBatches } = require('./ingest-events');
const { recountRollups } = require('./ingest-recount');

const ROOT = path.join(__dirname, '..');
const MAIN = path.join(ROOT, 'dist/src/main.js');
const CLI = path.join(ROOT, 'dist/src/cli.js');
const RAW_SERVER = path.join(__dirname, 'raw-sessions-server.js');
const RESULTS_MD = path.join(__dirname, 'RESULTS.md');
const MARK_START = '<!-- bench:latest:start -->';
const MARK_END = '<!-- bench:latest:end -->';
const MAX_OFFSET = 1_000_000; // PaginationQuery's bound
const JOB_POLL_MS = 50;
const HUGE = '100000000';
/** As API pods run (docker/compose.yaml, docs/DECISIONS.md "API memory"). */
const API_NODE_OPTIONS = '--max-old-space-size=1024 --max-semi-space-size=32';

const log = (...args) => console.error(new Date().toISOString().slice(11, 19), ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (items) => items[Math.floor(Math.random() * items.length)];

class UsageError extends Error {}

// ---------------------------------------------------------------- options and manifest

function parseArgs(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    const number = (min) => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < min) throw new UsageError(`${arg} must be a number >= ${min}`);
      return n;
    };
    if (arg === '--seconds') given.seconds = number(1);
    else if (arg === '--warmup') given.warmup = number(0);
    else if (arg === '--connections') given.connections = number(1);
    else if (arg === '--job-links') given.jobLinks = Math.min(500, number(1));
    else if (arg === '--only') given.only = value().toLowerCase();
    else if (arg === '--manifest') given.manifest = path.resolve(value());
    else if (arg === '--out') given.out = path.resolve(value());
    else if (arg === '--redis') given.redis = value();
    else if (arg === '--smoke') given.smoke = true;
    else if (arg === '--check') given.check = true;
    else throw new UsageError(`unknown option ${arg}`);
  }
  const smoke = Boolean(given.smoke);
  return {
    smoke,
    check: Boolean(given.check) && !smoke,
    seconds: given.seconds ?? (smoke ? 1 : 10),
    warmup: given.warmup ?? (smoke ? 0 : 3),
    connections: given.connections ?? 20,
    jobLinks: given.jobLinks ?? (smoke ? 50 : 500),
    only: given.only ?? null,
    manifest: given.manifest ?? path.join(__dirname, smoke ? '.dataset.engagement_bench_smoke.json' : '.dataset.json'),
    out: given.out ?? path.join(__dirname, 'results', smoke ? 'smoke.json' : 'latest.json'),
    redis: given.redis ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14',
  };
}

function readManifest(file) {
  if (!existsSync(file)) throw new Error(`no dataset manifest at ${file}: build one with node bench/data.js (see its header)`);
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const sample = manifest.sample ?? {};
  const missing = ['databaseUrl', 'organizationId', 'apiKey', 'counts'].filter((k) => !manifest[k]);
  for (const list of ['sessionIds', 'transcriptSessionIds', 'accountDomains', 'emailSubstrings', 'linkIds']) {
    if (!Array.isArray(sample[list]) || sample[list].length === 0) missing.push(`sample.${list}`);
  }
  if (!sample.largeCampaignId) missing.push('sample.largeCampaignId');
  if (missing.length > 0) throw new Error(`manifest ${file} lacks ${missing.join(', ')}`);
  return manifest;
}

// ---------------------------------------------------------------- scenarios and targets

const atMost = (metric, limit, unit = ' ms') => ({ metric, op: '<=', limit, unit });
const atLeast = (metric, limit, unit = '') => ({ metric, op: '>=', limit, unit });

/**
 * The load scenarios, in run order (reads first; event ingestion last, since it writes). `path`
 * is called per request; `baseline` also runs the path against the raw server.
 */
function loadScenarios(manifest, runTag) {
  const { sample, counts } = manifest;
  const lastPage = Math.min(MAX_OFFSET, Math.max(0, counts.sessions - 50));
  const events = eventBatches(sample.linkIds, runTag);
  const fixed = (p) => () => p;
  return [
    { name: 'sessions list', path: fixed('/api/v1/sessions'), baseline: true, targets: [atLeast('ratio', 0.8), atMost('p99_ms', 50)] },
    {
      name: 'sessions filtered by buying_intent + qualification_status',
      path: fixed('/api/v1/sessions?buying_intent=high&qualification_status=qualified'),
      baseline: true,
      targets: [atMost('p99_ms', 100)],
    },
    {
      name: 'sessions filtered by email substring',
      path: () => `/api/v1/sessions?email=${encodeURIComponent(pick(sample.emailSubstrings))}`,
      baseline: true,
      targets: [atMost('p99_ms', 100)],
    },
    {
      name: `sessions at offset ${lastPage.toLocaleString('en-US')}`,
      path: fixed(`/api/v1/sessions?offset=${lastPage}`),
      baseline: true,
      connections: 4,
      targets: [atMost('p50_ms', 200)],
    },
    { name: 'session detail', path: () => `/api/v1/sessions/${pick(sample.sessionIds)}`, targets: [atMost('p99_ms', 20)] },
    { name: 'transcript', path: () => `/api/v1/sessions/${pick(sample.transcriptSessionIds)}/transcript`, targets: [atMost('p99_ms', 20)] },
    { name: 'people list', path: fixed('/api/v1/people'), targets: [] },
    { name: 'account', path: () => `/api/v1/accounts/${encodeURIComponent(pick(sample.accountDomains))}`, targets: [atMost('p99_ms', 20)] },
    { name: 'custom links by last activity', path: fixed('/api/v1/custom-links?sort=last_activity_at&order=desc'), targets: [] },
    {
      name: 'campaign engagement',
      path: fixed(`/api/v1/custom-link-campaigns/${sample.largeCampaignId}/engagement`),
      // Named after the links it aggregates, as the service counts them.
      rename: (body) => `campaign engagement (${Number(body.generatedLinkCount).toLocaleString('en-US')} links)`,
      targets: [atMost('p50_ms', 100)],
    },
    {
      name: `event ingestion (batches of ${EVENT_BATCH})`,
      path: fixed('/api/v1/events'),
      body: events,
      batch: EVENT_BATCH,
      connections: 6,
      check: (body) => (body.accepted === EVENT_BATCH ? null : `accepted ${body.accepted} of ${EVENT_BATCH} (rejected: ${JSON.stringify(body.rejected).slice(0, 200)})`),
      targets: [atLeast('events_per_s', 20000, ' events/s')],
      // The links' and campaigns' rollups against a recount from the stored events (bench/ingest-recount.js).
      verify: () => recountRollups(manifest.databaseUrl, manifest.organizationId, sample.linkIds),
    },
  ];
}

function jobScenarios(jobLinks) {
  return [
    { name: `${jobLinks}-link job, thumbnails provided`, thumbnails: false, targets: [atMost('seconds', 10, ' s')] },
    { name: `${jobLinks}-link job, thumbnails rendered`, thumbnails: true, targets: [atMost('seconds', 60, ' s')] },
  ];
}

const selected = (opts, name) => opts.only === null || name.toLowerCase().includes(opts.only);

function describeTarget({ metric, op, limit, unit }) {
  const label = { ratio: 'ratio', p50_ms: 'p50', p99_ms: 'p99', events_per_s: '', seconds: '', peak_rss_mb: '' }[metric];
  return `${label ? `${label} ` : ''}${op === '<=' ? '≤' : '≥'} ${limit.toLocaleString('en-US')}${unit}`;
}

function evaluate(name, targets, values) {
  return targets.map((target) => {
    const value = values[target.metric] ?? null;
    const met = value === null ? false : target.op === '<=' ? value <= target.limit : value >= target.limit;
    return { name, target: describeTarget(target), value, met };
  });
}

// ---------------------------------------------------------------- child processes

const children = new Set();

/** Starts `node script` with this env; its output goes to our stderr, prefixed, and its tail is kept for errors. */
function startChild(label, script, env) {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.label = label;
  child.tail = [];
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      child.tail.push(line);
      if (child.tail.length > 30) child.tail.shift();
      process.stderr.write(`[${label}] ${line}\n`);
    });
  }
  children.add(child);
  child.once('exit', (code, signal) => {
    children.delete(child);
    if (!child.stopping) log(`${label} (pid ${child.pid}) exited unexpectedly: ${signal ?? `status ${code}`}`);
  });
  return child;
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

async function stopChild(child, graceMs = 10_000) {
  if (exited(child)) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  child.stopping = true;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

function killChildrenNow() {
  for (const child of children) {
    child.stopping = true;
    child.kill('SIGKILL');
  }
}

async function waitHealthy(child, url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`${child.label} exited (${child.exitCode ?? child.signalCode}) before answering:\n${child.tail.join('\n')}`);
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error(`${child.label} did not answer ${url} within ${timeoutMs / 1000} s`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The service's environment: the manifest's database, our Redis and queues, every limit far above the load. */
function serviceEnv(manifest, opts, queuePrefix) {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: manifest.databaseUrl,
    REDIS_URL: opts.redis,
    CURSOR_SECRET: 'bench-cursor-secret-0123456789',
    QUEUE_PREFIX: queuePrefix,
    SHUTDOWN_TIMEOUT_MS: '5000',
    SHUTDOWN_DRAIN_DELAY_MS: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    TRANSCRIPT_DAILY_LIMIT: HUGE,
    LINK_MUTATIONS_PER_MINUTE: '1000000',
    LINK_CREATION_UNITS_PER_HOUR: HUGE,
    LINK_CREATION_UNITS_PER_DAY: HUGE,
    THUMBNAIL_RENDER_UNITS_PER_HOUR: HUGE,
    THUMBNAIL_RENDER_UNITS_PER_DAY: HUGE,
  };
}

function cli(env, ...args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`cli ${args[0]} failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

async function flushRedis(url) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

// ---------------------------------------------------------------- memory of the API process

const procStatusMb = (pid, field) => {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
};

/** Samples VmRSS every second; `stop()` adds the kernel's high-water mark (VmHWM) and returns both peaks. */
function watchRss(pid) {
  let sampled = procStatusMb(pid, 'VmRSS') ?? 0;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, procStatusMb(pid, 'VmRSS') ?? 0);
  }, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const hwm = procStatusMb(pid, 'VmHWM');
      sampled = Math.max(sampled, procStatusMb(pid, 'VmRSS') ?? 0);
      return { vmhwm_mb: hwm, sampled_vmrss_mb: sampled || null, peak_rss_mb: Math.max(hwm ?? 0, sampled) || null };
    },
  };
}

// ---------------------------------------------------------------- load

const runAutocannon = (config) => new Promise((resolve, reject) => autocannon(config, (error, result) => (error ? reject(error) : resolve(result))));

/** One plain request of the scenario: fails fast with the status and body, else returns the JSON body. */
async function preflight(origin, scenario, headers) {
  const init = scenario.body ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: scenario.body() } : { headers };
  const res = await fetch(origin + scenario.path(), init);
  const text = await res.text();
  if (!res.ok) return { failure: `${res.status} ${text.slice(0, 500)}` };
  const body = JSON.parse(text);
  const problem = scenario.check ? scenario.check(body) : null;
  return problem ? { failure: problem } : { body };
}

/** After a load with non-2xx answers: a few requests of the same kind, to show one. */
async function sampleFailure(origin, scenario, headers) {
  for (let i = 0; i < 20; i++) {
    const { failure } = await preflight(origin, scenario, headers).catch((error) => ({ failure: String(error) }));
    if (failure) return failure;
  }
  return null;
}

/** Warm-up then measured autocannon run of one scenario against one origin. */
async function measure(origin, scenario, headers, opts) {
  const connections = scenario.connections ?? opts.connections;
  const request = scenario.body
    ? { method: 'POST', setupRequest: (req) => ({ ...req, path: scenario.path(), body: scenario.body() }) }
    : { method: 'GET', setupRequest: (req) => ({ ...req, path: scenario.path() }) };
  const config = {
    url: origin,
    connections,
    timeout: 30,
    headers: scenario.body ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: [request],
  };
  let warm = { non2xx: 0, errors: 0 };
  if (opts.warmup > 0) warm = await runAutocannon({ ...config, duration: opts.warmup });
  const r = await runAutocannon({ ...config, duration: opts.seconds });
  return {
    connections,
    seconds: r.duration,
    rps: Math.round((r.requests.total / r.duration) * 10) / 10,
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx + warm.non2xx,
    errors: r.errors + warm.errors,
    timeouts: r.timeouts,
    status_codes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
  };
}

/** Preflight and load of one scenario against one server; a failed preflight skips the load. */
async function runOne(origin, scenario, headers, opts, server) {
  const checked = await preflight(origin, scenario, headers).catch((error) => ({ failure: String(error) }));
  if (checked.failure) {
    log(`  ${server}: FAILED before loading: ${checked.failure}`);
    return { server, rps: 0, p50_ms: null, p99_ms: null, non2xx: 0, errors: 1, failure: checked.failure };
  }
  const run = { server, ...(await measure(origin, scenario, headers, opts)), failure: null, body: checked.body };
  if (run.non2xx > 0 || run.errors > 0) {
    run.failure = (await sampleFailure(origin, scenario, headers)) ?? `non-2xx ${run.non2xx}, errors ${run.errors}, codes ${JSON.stringify(run.status_codes)}`;
    log(`  ${server}: FAILED: ${run.non2xx} non-2xx, ${run.errors} errors; e.g. ${run.failure}`);
  }
  return run;
}

/** The mean of a server's runs of one scenario: req/s and latency percentiles. */
function meanOf(runs) {
  const mean = (key) => (runs.some((r) => r[key] === null) ? null : Math.round((runs.reduce((sum, r) => sum + r[key], 0) / runs.length) * 10) / 10);
  return { rps: mean('rps'), p50_ms: mean('p50_ms'), p99_ms: mean('p99_ms') };
}

/**
 * One scenario against the service and, with a baseline, the raw server. The two then run in ABBA
 * order (service, raw, raw, service) and each side's figures are the mean of its two runs, so neither
 * gains from going first or second (the caches, the JIT and the machine's drift are shared).
 */
async function runScenario(scenario, servers, headers, opts, apiPid) {
  log(`${scenario.name}: ${scenario.connections ?? opts.connections} connections, ${opts.warmup} s warm-up, ${opts.seconds} s${scenario.baseline ? ', service and raw in ABBA order' : ''}`);
  const order = scenario.baseline ? ['service', 'raw', 'raw', 'service'] : ['service'];
  const runs = { service: [], raw: [] };
  for (const server of order) {
    const run = server === 'service' ? await runOne(servers.api, scenario, headers, opts, server) : await runOne(servers.raw, scenario, {}, opts, server);
    if (server === 'service') run.api_rss_mb = procStatusMb(apiPid, 'VmRSS');
    runs[server].push(run);
  }
  const body = runs.service[0].body;
  const name = scenario.rename && body ? scenario.rename(body) : scenario.name;
  for (const run of [...runs.service, ...runs.raw]) delete run.body;
  const service = meanOf(runs.service);
  const raw = runs.raw.length > 0 ? meanOf(runs.raw) : null;
  const row = {
    name,
    rps: service.rps,
    p50_ms: service.p50_ms,
    p99_ms: service.p99_ms,
    baseline_rps: raw ? raw.rps : null,
    ratio: raw && raw.rps > 0 ? Math.round((service.rps / raw.rps) * 100) / 100 : null,
  };
  const values = { ...row, events_per_s: scenario.batch ? Math.round(service.rps * scenario.batch) : undefined };
  log(`  ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms${raw ? `; raw ${raw.rps} req/s, ratio ${row.ratio}` : ''}`);
  return {
    row,
    runs: [...runs.service, ...runs.raw].map((run) => ({ name, ...run })),
    targets: evaluate(name, scenario.targets, values),
    events: scenario.batch ? { events_per_s: values.events_per_s, batch_size: scenario.batch, connections: runs.service[0].connections } : null,
  };
}

/** A scenario's check after its load: a target `exact`, and a failure (exit 1) on any mismatch. */
async function verifyAfter(scenario, outcome) {
  log(`${scenario.name}: recounting the rollups`);
  const result = await scenario.verify();
  log(`  ${result.links} links, ${result.events} events, ${result.campaigns} campaigns recounted in ${result.seconds} s: ${result.mismatchCount} mismatches`);
  outcome.targets.push({ name: outcome.row.name, target: 'rollups exact', value: result.mismatchCount, met: result.mismatchCount === 0 });
  if (result.mismatchCount > 0) outcome.runs[0].failure = `rollups differ from a recount: ${result.mismatches.slice(0, 3).join('; ')}`;
}

// ---------------------------------------------------------------- jobs

function jobBody(count, label, thumbnails) {
  return JSON.stringify({
    links: Array.from({ length: count }, (_, i) => ({
      firstName: `Prospect${i}`,
      lastName: 'Bench',
      company: `Company ${i % 50}`,
      email: `p${i}@company${i % 50}.com`,
      externalId: `${label}-${i}`,
      ...(thumbnails ? {} : { shareThumbnailUrl: `https://cdn.example.com/${i}.png` }),
    })),
  });
}

/** timeJob, with a failure (a refused request, a dead API) as a job of status `error`. */
async function timeJobSafely(origin, headers, job) {
  try {
    return await timeJob(origin, headers, job);
  } catch (error) {
    log(`  ${job.name}: ${error.message}`);
    return { name: job.name, seconds: null, status: 'error', links: 0, thumbnails_rendered: 0, failure: error.message };
  }
}

/** Seconds from POST /custom-links (202) to a terminal job status, polling every 50 ms. */
async function timeJob(origin, headers, { name, count, thumbnails, label, timeoutMs }) {
  const started = Date.now();
  const res = await fetch(`${origin}/api/v1/custom-links`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': label },
    body: jobBody(count, label, thumbnails),
  });
  if (res.status !== 202) throw new Error(`POST /custom-links answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  const { job } = await res.json();
  for (;;) {
    const polled = await fetch(`${origin}/api/v1/custom-link-jobs/${job.id}`, { headers });
    if (!polled.ok) throw new Error(`GET /custom-link-jobs/${job.id} answered ${polled.status}: ${(await polled.text()).slice(0, 500)}`);
    const state = await polled.json();
    const seconds = Math.round((Date.now() - started) / 10) / 100;
    if (!['queued', 'processing'].includes(state.status) || Date.now() - started > timeoutMs) {
      const status = ['queued', 'processing'].includes(state.status) ? `timed out (${state.status})` : state.status;
      return { name, seconds, status, links: state.createdCount, thumbnails_rendered: state.thumbnailGeneratedCount + state.thumbnailFallbackCount };
    }
    await sleep(JOB_POLL_MS);
  }
}

/**
 * The job scenarios in a fresh organization (so the manifest's stays as built) with one worker
 * process; a small warm-up job first. Returns the jobs and the organization to delete.
 */
async function runJobs(env, apiOrigin, opts, runTag) {
  const jobs = jobScenarios(opts.jobLinks).filter((job) => selected(opts, job.name));
  if (jobs.length === 0) return { jobs: [], targets: [], failures: [], organizationId: null };
  const org = await cli(env, 'org:create', '--name', `Bench jobs ${runTag}`);
  const { key } = await cli(env, 'key:create', '--org', org.id, '--scopes', 'custom_links:write');
  const headers = { authorization: `Bearer ${key}` };
  const workerPort = await freePort();
  const worker = startChild('worker', MAIN, { ...env, APP_ROLE: 'worker', PORT: String(workerPort) });
  try {
    await waitHealthy(worker, `http://127.0.0.1:${workerPort}/healthz`);
    const timeoutMs = opts.smoke ? 120_000 : 600_000;
    log(`jobs: warm-up job of ${Math.min(50, opts.jobLinks)} links`);
    await timeJobSafely(apiOrigin, headers, { name: 'warm-up', count: Math.min(50, opts.jobLinks), thumbnails: false, label: `${runTag}-warm-up`, timeoutMs });
    const results = [];
    const targets = [];
    const failures = [];
    for (const [i, job] of jobs.entries()) {
      log(`${job.name}`);
      const { failure, ...result } = await timeJobSafely(apiOrigin, headers, { name: job.name, count: opts.jobLinks, thumbnails: job.thumbnails, label: `${runTag}-job-${i}`, timeoutMs });
      log(`  ${result.status} in ${result.seconds} s (${result.links} links, ${result.thumbnails_rendered} cards rendered)`);
      results.push(result);
      if (failure) failures.push({ name: job.name, server: 'api', failure });
      targets.push(...evaluate(job.name, job.targets, result));
    }
    return { jobs: results, targets, failures, organizationId: org.id };
  } finally {
    await stopChild(worker);
  }
}

// ---------------------------------------------------------------- reporting

const fmt = (value, digits = 0) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en-US', { maximumFractionDigits: digits }));

function printSummary(results) {
  console.log('');
  console.table(results.scenarios.map((s) => ({ scenario: s.name, 'req/s': s.rps, 'p50 ms': s.p50_ms, 'p99 ms': s.p99_ms, 'raw req/s': s.baseline_rps, ratio: s.ratio })));
  if (results.jobs.length > 0) console.table(results.jobs);
  if (results.events) console.log(`event ingestion: ${fmt(results.events.events_per_s)} events/s (${results.events.batch_size} per batch, ${results.events.connections} connections)`);
  console.log(`API peak RSS: ${fmt(results.peak_rss_mb, 1)} MB`);
  for (const t of results.targets) console.log(`${t.met ? 'met   ' : 'MISSED'}  ${t.name}: ${t.target} (${fmt(t.value, 2)})`);
  for (const f of results.failures) console.log(`FAILED  ${f.name} (${f.server}): ${f.failure}`);
}

function markdownSection(results, opts) {
  const targetsOf = (name) => results.targets.filter((t) => t.name === name);
  const targetCells = (name) => {
    const targets = targetsOf(name);
    if (targets.length === 0) return '| | |';
    return `| ${targets.map((t) => t.target).join(', ')} | ${targets.map((t) => (t.met ? 'yes' : 'no')).join(', ')} |`;
  };
  const { counts } = results.dataset;
  const lines = [
    '## Latest run',
    '',
    `Command: \`${results.command}\`, ${results.started_at.slice(0, 16).replace('T', ' ')} UTC, ${results.machine.cpus} CPUs, Node ${results.machine.node}, PostgreSQL ${results.machine.postgres.split(' ')[0]}.`,
    `Dataset \`${results.dataset.database}\` (bench/data.js, built ${String(results.dataset.builtAt ?? '').slice(0, 10)}): ${fmt(counts.sessions)} sessions, ${fmt(counts.people)} people, ` +
      `${fmt(counts.accounts)} accounts, ${fmt(counts.links)} links, ${fmt(counts.campaigns)} campaigns, ${fmt(counts.events)} events, ${fmt(counts.transcripts)} transcripts.`,
    `One API process (\`APP_ROLE=api NODE_ENV=production LOG_LEVEL=warn NODE_OPTIONS='${API_NODE_OPTIONS}'\`) and the raw baseline (\`bench/raw-sessions-server.js\`: node:http + pg, ` +
      `the repository's very SQL, prepared the same way, with the exact total computed on every request: no framework, auth, rate limit or count cache) on the same machine; autocannon ${opts.warmup} s warm-up then ${opts.seconds} s, ` +
      `${opts.connections} connections unless noted; a scenario with a baseline runs service, raw, raw, service and reports each side's mean. Figures: [\`${path.relative(__dirname, opts.out)}\`](${path.relative(__dirname, opts.out)}).`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | raw baseline req/s | ratio | target | met |',
    '|---|---|---|---|---|---|---|---|',
    ...results.scenarios.map((s) => {
      const run = results.runs.find((r) => r.name === s.name && r.server === 'service');
      const noted = run && run.connections !== opts.connections ? ` (${run.connections} connections)` : '';
      return `| ${s.name}${noted} | ${fmt(s.rps)} | ${fmt(s.p50_ms)} | ${fmt(s.p99_ms)} | ${fmt(s.baseline_rps)} | ${fmt(s.ratio, 2)} ${targetCells(s.name)}`;
    }),
  ];
  if (results.jobs.length > 0) {
    lines.push('', 'Link creation jobs (one worker process; from `POST /api/v1/custom-links` to a terminal status, polled every 50 ms):', '');
    lines.push('| job | status | links | cards rendered | seconds | target | met |', '|---|---|---|---|---|---|---|');
    for (const j of results.jobs) lines.push(`| ${j.name} | ${j.status} | ${fmt(j.links)} | ${fmt(j.thumbnails_rendered)} | ${fmt(j.seconds, 1)} ${targetCells(j.name)}`);
  }
  if (results.events) {
    const run = results.runs.find((r) => r.name.startsWith('event ingestion') && r.server === 'service');
    lines.push('', `Event ingestion: ${fmt(results.events.events_per_s)} events/s (${results.events.batch_size} events per request, ` +
      `${results.events.connections} connections, p50 ${fmt(run?.p50_ms)} ms, p99 ${fmt(run?.p99_ms)} ms).`);
  }
  const rss = results.rss;
  lines.push('', `API peak RSS over the run: ${fmt(results.peak_rss_mb, 1)} MB (VmHWM ${fmt(rss.vmhwm_mb, 1)} MB, highest VmRSS sampled each second ${fmt(rss.sampled_vmrss_mb, 1)} MB); target ≤ 300 MB.`);
  return lines.join('\n');
}

/** Replaces the marked section of RESULTS.md, or inserts it after the intro paragraph. */
function updateResultsMd(section) {
  const text = readFileSync(RESULTS_MD, 'utf8');
  const block = `${MARK_START}\n${section}\n${MARK_END}`;
  const start = text.indexOf(MARK_START);
  const end = text.indexOf(MARK_END);
  if (start >= 0 && end > start) {
    writeFileSync(RESULTS_MD, text.slice(0, start) + block + text.slice(end + MARK_END.length));
    return;
  }
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && (lines[i].startsWith('# ') || lines[i].trim() === '')) i++;
  while (i < lines.length && lines[i].trim() !== '') i++;
  lines.splice(i, 0, '', block);
  writeFileSync(RESULTS_MD, lines.join('\n'));
}

function commandLine() {
  const args = process.argv.slice(2).join(' ');
  const script = process.env.npm_lifecycle_event;
  if (script === 'bench' || script === 'bench:smoke') return `npm run ${script}${args ? ` -- ${args}` : ''}`;
  return `node bench/run.js${args ? ` ${args}` : ''}`;
}

async function postgresVersion(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query('SHOW server_version')).rows[0].server_version;
  } finally {
    await db.end();
  }
}

async function deleteOrganization(databaseUrl, organizationId) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('DELETE FROM organizations WHERE id = $1', [organizationId]);
  } finally {
    await db.end();
  }
}

/** A refused manifest key means the database was rebuilt (or replaced) after the manifest was read. */
async function checkKey(origin, headers, manifest) {
  const res = await fetch(`${origin}/api/v1/sessions?limit=1`, { headers });
  if (res.status === 401) throw new Error(`the API refuses the manifest's key: is the manifest (built ${manifest.builtAt}) the one of database ${manifest.database}?`);
}

// ---------------------------------------------------------------- main

async function bench(opts, manifest, startedAt) {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const runTag = `bench-${startedAt.getTime().toString(36)}-${process.pid}`;
  const env = serviceEnv(manifest, opts, runTag);
  await flushRedis(opts.redis);
  const [apiPort, rawPort] = [await freePort(), await freePort()];
  const servers = { api: `http://127.0.0.1:${apiPort}`, raw: `http://127.0.0.1:${rawPort}` };
  const scenarios = loadScenarios(manifest, runTag).filter((s) => selected(opts, s.name));

  const api = startChild('api', MAIN, { ...env, APP_ROLE: 'api', PORT: String(apiPort), NODE_OPTIONS: API_NODE_OPTIONS });
  const raw = scenarios.some((s) => s.baseline)
    ? startChild('raw', RAW_SERVER, { PATH: env.PATH, DATABASE_URL: manifest.databaseUrl, ORGANIZATION_ID: manifest.organizationId, PORT: String(rawPort) })
    : null;
  let jobsOrg = null;
  try {
    await waitHealthy(api, `${servers.api}/healthz`);
    if (raw) await waitHealthy(raw, `${servers.raw}/api/v1/sessions?limit=1`);
    const headers = { authorization: `Bearer ${manifest.apiKey}` };
    await checkKey(servers.api, headers, manifest);
    const rss = watchRss(api.pid);
    const outcomes = [];
    for (const scenario of scenarios) {
      const outcome = await runScenario(scenario, servers, headers, opts, api.pid);
      if (scenario.verify) await verifyAfter(scenario, outcome);
      outcomes.push(outcome);
    }
    if (raw) await stopChild(raw);
    const jobs = await runJobs(env, servers.api, opts, runTag);
    jobsOrg = jobs.organizationId;
    const memory = rss.stop();
    return { outcomes, jobs, memory };
  } finally {
    await Promise.all([...children].map((child) => stopChild(child)));
    if (jobsOrg) await deleteOrganization(manifest.databaseUrl, jobsOrg).catch((e) => log(`could not delete the jobs organization ${jobsOrg}: ${e.message}`));
  }
}

function assemble(opts, manifest, startedAt, postgres, { outcomes, jobs, memory }) {
  const events = outcomes.find((o) => o.events)?.events ?? null;
  const rssTarget = evaluate('API peak RSS', [atMost('peak_rss_mb', 300, ' MB')], memory);
  const runs = outcomes.flatMap((o) => o.runs);
  return {
    scenarios: outcomes.map((o) => o.row),
    jobs: jobs.jobs,
    events,
    peak_rss_mb: memory.peak_rss_mb,
    targets: [...outcomes.flatMap((o) => o.targets), ...jobs.targets, ...(opts.only === null ? rssTarget : [])],
    dataset: { database: manifest.database, builtAt: manifest.builtAt, buildSeconds: manifest.buildSeconds, counts: manifest.counts, flags: manifest.flags ?? {} },
    command: commandLine(),
    started_at: startedAt.toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, postgres },
    smoke: opts.smoke,
    settings: { seconds: opts.seconds, warmup: opts.warmup, connections: opts.connections, job_links: opts.jobLinks, only: opts.only },
    rss: memory,
    runs,
    failures: [
      ...runs.filter((r) => r.failure).map((r) => ({ name: r.name, server: r.server, failure: r.failure })),
      ...jobs.failures,
      ...jobs.jobs.filter((j) => !['completed', 'error'].includes(j.status)).map((j) => ({ name: j.name, server: 'worker', failure: `job ended ${j.status}` })),
    ],
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const manifest = readManifest(opts.manifest);
  const startedAt = new Date();
  log(`dataset ${manifest.database} (${opts.manifest}): ${JSON.stringify(manifest.counts)}`);
  const postgres = await postgresVersion(manifest.databaseUrl);
  const results = assemble(opts, manifest, startedAt, postgres, await bench(opts, manifest, startedAt));

  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  printSummary(results);
  log(`results written to ${path.relative(process.cwd(), opts.out)}`);
  if (!opts.smoke && opts.only === null && results.failures.length === 0) {
    updateResultsMd(markdownSection(results, opts));
    log('bench/RESULTS.md updated');
  } else if (!opts.smoke && opts.only === null) {
    log('bench/RESULTS.md left as it was: the run had failures');
  }
  if (results.failures.length > 0) return 1;
  if (opts.check && results.targets.some((t) => !t.met)) return 1;
  return 0;
}

process.once('SIGINT', () => {
  killChildrenNow();
  process.exit(130);
});
process.once('SIGTERM', () => {
  killChildrenNow();
  process.exit(143);
});
process.once('exit', killChildrenNow);

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof UsageError ? `bench/run.js: ${error.message}` : error);
    killChildrenNow();
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
