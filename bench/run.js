#!/usr/bin/env node
// The benchmark runner. On the dataset that bench/data.js built (its manifest), it starts the built
// service as API process(es) (and a worker process for the job scenarios) plus the raw baselines
// (bench/raw-server.js), loads each scenario with autocannon, checks the targets, and writes
// bench/results/latest.json and the "latest" section of bench/RESULTS.md.
//
// Ratios. Each hot read (the session lists, the tenant's email search, session detail, transcript,
// people, account, link detail, custom links, campaign engagement, the analytics questions, the
// redirect) also runs against its raw baseline, in ABBA order in one run (service, raw, raw, service;
// each side the mean of its two runs), and reports `ratio` = service req/s ÷ raw req/s. The raw
// baseline is the service without its framework: the built modules booted as a Nest application
// context with no HTTP adapter, answering on node:http by calling the very service methods the
// controllers call (the same SQL, repositories, pool, count strategy, cursors and mapping), plus what
// the service does per request around them, with the service's own code: the request id and security
// headers (the same middleware functions), the key through the service's ApiKeyGuard and principal
// cache, the scope check, the RateLimitGuard's Redis call on the same ThrottlerStorage with its
// X-RateLimit-* headers, and for a transcript the daily-quota charge inside its statement. Left out:
// express and Nest's pipeline (routing, the other guards, pipes, the exception filter), logging and
// metrics. See bench/raw-server.js. Like for like, checked: before its load, each single-row read
// (session detail, transcript, account, link detail, the redirect) is asked of both sides once, and
// a header name only one side sent fails the run (bench/run/headers.js; the row's `header_names`).
// Tails. Every read reports p50, p99 and max, `tail` = p99 ÷ p50, and `baseline_tail`, its raw
// baseline's in the same run; its target: tail ≤ 1.2 × baseline_tail (20 connections).
// Load. autocannon runs in a child process of its own per measurement (bench/run/load-generator.js),
// never in the runner's process, and the CPU time the measured processes used over the window is
// read from /proc (`cpu_ms_per_request`: a figure that holds on a busy machine).
// Instances. `--instances N` starts N API processes (and N raw baselines); autocannon spreads its
// connections over their ports in turn (no proxy process), and each read also runs against the
// first instance alone (`rps_one_instance`, `scaling`), interleaved with the others.
// Workers. `--workers N` (N > 1): the event ingestion runs with one folding worker, then with N, and
// each link creation job with one worker, then with N; rows keep both (`events_per_s_one_worker`,
// `seconds_one_worker`, `worker_scaling`).
// Jobs. Link creation jobs run on one worker process (of the --api-tree) under `nice -n 10`
// (production runs workers in pods of their own: they do not take the API's CPU); the mixed scenario
// measures the sessions list's p99 alone and while a job renders its cards.
//
// Usage: npm run bench            (= npm run build && node bench/run.js)
//        npm run bench:smoke      (CI: tiny dataset, ~1 s per scenario, bench/results/smoke.json)
//   node bench/run.js [--seconds 10] [--warmup 3] [--connections 20] [--instances 1] [--workers 1] [--only <name substring>]
//                     [--manifest bench/.dataset.json] [--out bench/results/latest.json]
//                     [--job-links 500] [--redis redis://127.0.0.1:6379/14] [--smoke] [--check] [--prime]
//                     [--api-tree DIR]
//   --only    scenarios whose name holds the text (case-insensitive), plus those their relative
//             targets need (the tenant's search needs the sessions list); `--only mixed` runs the mixed scenario.
//   --smoke   the smoke manifest (bench/.dataset.engagement_bench_smoke.json), 1 s per scenario, no
//             warm-up, 50-link jobs, results in bench/results/smoke.json; RESULTS.md is not touched
//             and targets are printed, not enforced.
//   --check   exit 1 when a target that ran is missed (with --only too).
//   --prime   before each read's warm-up, every one of its paths requested once (four at a time), so
//             that the window sees the caches a steady state has: an email search's cached total
//             costs a count of the organization's matches the first time, which a short warm-up
//             leaves to the window at a large size (bench/RESULTS.md, session 26).
//   --api-tree the API processes and the jobs' worker run DIR's build (dist/ of another checkout, e.g.
//             an earlier commit in a worktree) under this runner and raw baselines: an A/B of builds
//             with one runner. Use with --out (RESULTS.md is never rewritten from it).
// Results (latest.json, or --out): `scenarios[]` (name, rps, p50_ms, p99_ms, max_ms, baseline_rps,
// ratio, and connections, instances, cpu_ms_per_request, baseline_cpu_ms_per_request, baseline_p50_ms,
// baseline_p99_ms, tail, baseline_tail, header_names, rps_one_instance, scaling, …), `targets[]` (name, target, value, met), `jobs[]`, `mixed`, `events`, `peak_rss_mb`,
// the dataset, command, machine and every single run (`runs[]`).
// RESULTS.md's latest section is rewritten only by a full run (no --smoke, no --only, no --out) without failures.
// Exit status: 1 when a scenario answered a non-2xx or failed, a job did not complete, the run
// itself failed, or (--check) a target was missed; 2 for bad options. Needs `npm run build` (dist/),
// PostgreSQL and Redis.
// The Redis database (--redis, default db 14) is flushed at the start: keep it for benchmarks.
// The job scenarios run in a fresh organization, deleted at the end; event ingestion adds its events
// to the manifest's organization (unique event ids per run).
'use strict';
const { existsSync, mkdirSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { jobsOrganization, runJobs } = require('./run/jobs');
const { log } = require('./run/log');
const { headersOf, runScenario } = require('./run/measure');
const { UsageError, parseArgs, readManifest } = require('./run/options');
const {
  API_NODE_OPTIONS,
  flushRedis,
  freePort,
  killChildrenNow,
  serviceEnv,
  sql,
  startChild,
  stopChild,
  stopChildren,
  waitHealthy,
  watchRss,
} = require('./run/processes');
const { commandLine, markdownSection, printSummary, updateResultsMd } = require('./run/report');
const { atMost, evaluate, jobScenarios, loadScenarios, mixedScenario, selectScenarios } = require('./run/scenarios');

const ROOT = path.join(__dirname, '..');
const MAIN = path.join(ROOT, 'dist/src/main.js');
const RAW_SERVER = path.join(__dirname, 'raw-server.js');

/**
 * `count` processes of one kind on ports of their own, answering on `health`.
 * @param {string} kind
 * @param {string} script
 * @param {number} count
 * @param {Record<string, string>} env
 * @param {string} health  The path that answers 200 once a process is up.
 * @param {string} [cwd]
 * @returns {Promise<import('./run/jobs').Api>}
 */
async function startProcesses(kind, script, count, env, health, cwd = ROOT) {
  const started = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const label = count === 1 ? kind : `${kind}${i + 1}`;
    started.push({
      child: startChild(label, script, { ...env, PORT: String(port) }, { cwd }),
      url: `http://127.0.0.1:${port}`,
    });
  }
  await Promise.all(started.map(({ child, url }) => waitHealthy(child, url + health)));
  return {
    urls: started.map((p) => p.url),
    pids: started.map(({ child }) => {
      if (child.pid === undefined) throw new Error(`${child.label} has no process id`);
      return child.pid;
    }),
    children: started.map((p) => p.child),
  };
}

/**
 * A refused manifest key means the database was rebuilt (or replaced) after the manifest was read.
 * @param {string} origin
 * @param {import('./data/manifest').Manifest} manifest
 */
async function checkKeys(origin, manifest) {
  for (const apiKey of [manifest.apiKey, ...(manifest.tenant ? [manifest.tenant.apiKey] : [])]) {
    const res = await fetch(`${origin}/api/v1/sessions?limit=1`, { headers: headersOf(apiKey) });
    if (res.status === 401)
      throw new Error(
        `the API refuses a manifest key: is the manifest (built ${manifest.builtAt}) the one of database ${manifest.database}?`,
      );
  }
}

/**
 * The ingestion's outcome with N folding workers, its figures with one beside them (`…_one_worker`,
 * `worker_scaling` = events/s with N ÷ with one), and the runs of both.
 * @param {Awaited<ReturnType<typeof runScenario>>} many
 * @param {Awaited<ReturnType<typeof runScenario>>} one
 * @param {number} workers
 */
function againstOneWorker(many, one, workers) {
  /** @param {string} metric */
  const of = (metric) => {
    const value = one.row[metric];
    return typeof value === 'number' ? value : null;
  };
  const eventsPerS = many.row.events_per_s;
  const alone = of('events_per_s');
  /** @type {typeof many.row} */
  const row = {
    ...many.row,
    workers,
    events_per_s_one_worker: alone,
    fold_lag_p99_ms_one_worker: of('fold_lag_p99_ms'),
    fold_catch_up_ms_one_worker: of('fold_catch_up_ms'),
    worker_scaling:
      typeof eventsPerS === 'number' && alone !== null && alone > 0
        ? Math.round((eventsPerS / alone) * 100) / 100
        : null,
  };
  const runs = [...one.runs.map((run) => ({ ...run, server: `${run.server} (one worker)` })), ...many.runs];
  return { ...many, row, runs };
}

/**
 * @param {import('./run/options').Options} opts
 * @param {import('./data/manifest').Manifest} manifest
 * @param {Date} startedAt
 */
async function bench(opts, manifest, startedAt) {
  const apiTree = opts.apiTree ?? ROOT;
  const apiMain = path.join(apiTree, 'dist/src/main.js');
  if (!existsSync(MAIN) || !existsSync(apiMain)) throw new Error('dist/ is missing: run `npm run build` first');
  const runTag = `bench-${startedAt.getTime().toString(36)}-${process.pid}`;
  const env = serviceEnv(manifest, opts, runTag);
  await flushRedis(opts.redis);
  /** @param {string} name */
  const named = (name) => opts.only === null || name.toLowerCase().includes(opts.only);
  // The redirect scenario opens the sample links by slug (read here: manifests written before it have none).
  const slugs = await sql(
    manifest.databaseUrl,
    'SELECT slug FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND active ORDER BY slug LIMIT 200',
    [manifest.organizationId, manifest.sample.linkIds],
  );
  manifest.sample.slugs = slugs.map((row) => row.slug);
  const scenarios = selectScenarios(loadScenarios(manifest, runTag), opts.only).map((s) => ({
    ...s,
    apiKey: s.apiKey ?? manifest.apiKey,
  }));
  const jobs = jobScenarios(opts.jobLinks).filter((job) => named(job.name));
  const mixed = named(mixedScenario(opts.jobLinks).name) ? mixedScenario(opts.jobLinks) : null;

  const apiEnv = { ...env, APP_ROLE: 'api', NODE_OPTIONS: API_NODE_OPTIONS };
  /** @type {string | null} */
  let jobsOrg = null;
  const makeJobsOrganization = async () => {
    const org = await jobsOrganization(env, runTag);
    jobsOrg = org.organizationId;
    return org;
  };
  try {
    // The jobs' organization is made while the servers start (each CLI call boots the app).
    const [api, raw, jobsOrgKey] = await Promise.all([
      startProcesses('api', apiMain, opts.instances, apiEnv, '/healthz', apiTree),
      scenarios.some((s) => s.baseline) ? startProcesses('raw', RAW_SERVER, opts.instances, apiEnv, '/healthz') : null,
      jobs.length > 0 || mixed ? makeJobsOrganization() : null,
    ]);
    await checkKeys(api.urls[0], manifest);
    // Workers of the tree under test fold the event log while the scenarios run (ingestion needs one).
    /** @type {import('node:child_process').ChildProcess[]} */
    const folders = [];
    const startFolder = async () => {
      const port = await freePort();
      const folder = startChild(
        folders.length === 0 ? 'folder' : `folder${folders.length + 1}`,
        apiMain,
        { ...env, APP_ROLE: 'worker', PORT: String(port) },
        { cwd: apiTree },
      );
      folders.push(folder);
      await waitHealthy(folder, `http://127.0.0.1:${port}/healthz`);
    };
    await startFolder();
    const targets = { service: api, one: { urls: api.urls.slice(0, 1), pids: api.pids.slice(0, 1) }, raw };
    const rss = watchRss(api.pids);
    const outcomes = [];
    for (const scenario of scenarios) {
      const context = { manifest, runTag };
      if (!scenario.events || opts.workers === 1) {
        outcomes.push(await runScenario(scenario, targets, opts, context));
        continue;
      }
      // --workers N: the ingestion with one folding worker, then with N (its events tagged apart).
      const one = await runScenario(scenario, targets, opts, context);
      while (folders.length < opts.workers) await startFolder();
      const tag = `${scenario.events.tag}-w${opts.workers}`;
      const many = await runScenario({ ...scenario, events: { ...scenario.events, tag } }, targets, opts, context);
      outcomes.push(againstOneWorker(many, one, opts.workers));
    }
    if (raw) await Promise.all(raw.children.map((child) => stopChild(child)));
    await Promise.all(folders.map((folder) => stopChild(folder)));
    const jobResults = await runJobs(jobs, mixed, { env, api, manifest, opts, runTag, jobsOrganization: jobsOrgKey });
    return { outcomes, jobs: jobResults, memory: rss.stop() };
  } finally {
    await stopChildren();
    if (jobsOrg)
      await sql(manifest.databaseUrl, 'DELETE FROM organizations WHERE id = $1', [jobsOrg]).catch((e) =>
        log(`could not delete the jobs organization ${jobsOrg}: ${e.message}`),
      );
  }
}

/**
 * @param {import('./run/options').Options} opts
 * @param {import('./data/manifest').Manifest} manifest
 * @param {Date} startedAt
 * @param {string} postgres  Its version.
 * @param {Awaited<ReturnType<typeof bench>>} measured
 * @returns {import('./run/report').Results}
 */
function assemble(opts, manifest, startedAt, postgres, { outcomes, jobs, memory }) {
  const rowByKey = new Map(outcomes.map((o) => [o.scenario.key, o.row]));
  const loadTargets = outcomes.flatMap((o) =>
    evaluate(o.row.name, o.scenario.targets, o.row, (key) => rowByKey.get(key)),
  );
  const rssTarget = evaluate('API peak RSS', [atMost('peak_rss_mb', 300, ' MB')], memory);
  const loadRuns = outcomes.flatMap((o) => o.runs);
  // The mixed scenario's runs report their failures through jobs.failures.
  const runs = [...loadRuns, ...jobs.runs];
  const ingestion = outcomes.find((o) => o.scenario.key === 'event ingestion')?.row;
  const { tenant } = manifest;
  return {
    scenarios: [...outcomes.map((o) => o.row), ...(jobs.mixed ? [jobs.mixed] : [])],
    targets: [...loadTargets, ...jobs.targets, ...(opts.only === null ? rssTarget : [])],
    jobs: jobs.jobs,
    mixed: jobs.mixed,
    events: ingestion
      ? { events_per_s: ingestion.events_per_s, batch_size: ingestion.batch_size, connections: ingestion.connections }
      : null,
    peak_rss_mb: memory.peak_rss_mb,
    instances: opts.instances,
    dataset: {
      database: manifest.database,
      builtAt: manifest.builtAt,
      buildSeconds: manifest.buildSeconds,
      counts: manifest.counts,
      flags: manifest.flags ?? {},
      ...(tenant ? { tenant: { organizationId: tenant.organizationId, counts: tenant.counts } } : {}),
    },
    command: commandLine(),
    started_at: startedAt.toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, postgres },
    smoke: opts.smoke,
    settings: {
      seconds: opts.seconds,
      warmup: opts.warmup,
      connections: opts.connections,
      instances: opts.instances,
      workers: opts.workers,
      job_links: opts.jobLinks,
      only: opts.only,
    },
    rss: memory,
    runs,
    failures: [
      ...loadRuns.flatMap((r) => (r.failure ? [{ name: r.name, server: r.server, failure: r.failure }] : [])),
      ...outcomes.flatMap(({ row }) =>
        row.header_failure ? [{ name: row.name, server: 'service and raw', failure: row.header_failure }] : [],
      ),
      ...jobs.failures,
      ...jobs.jobs
        .filter((j) => !['completed', 'error'].includes(j.status))
        .map((j) => ({ name: j.name, server: 'worker', failure: `job ended ${j.status}` })),
    ],
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const manifest = readManifest(opts.manifest);
  const startedAt = new Date();
  log(
    `dataset ${manifest.database} (${opts.manifest}): ${JSON.stringify(manifest.counts)}${manifest.tenant ? `, tenant ${JSON.stringify(manifest.tenant.counts)}` : ''}`,
  );
  const [{ server_version: postgres }] = await sql(manifest.databaseUrl, 'SHOW server_version');
  const results = assemble(opts, manifest, startedAt, postgres, await bench(opts, manifest, startedAt));

  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  printSummary(results);
  log(`results written to ${path.relative(process.cwd(), opts.out)}`);
  if (!opts.smoke && opts.only === null && opts.apiTree === null && !opts.outGiven && results.failures.length === 0) {
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
