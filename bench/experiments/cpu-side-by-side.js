#!/usr/bin/env node
// CPU per request of two or more builds of the service, run side by side: one API process per
// build (each with its own private redis-server, all on the bench dataset), loaded at the same
// fixed request rate at the same time. The CPU the kernel charged each process (utime + stime, per
// thread group: the main thread and V8's GC helpers) divided by the requests it served is
// comparable across builds even on a busy machine, where req/s of separate runs is not: every build
// sees the same machine state, and the same rate means the same batching of Redis and PostgreSQL
// round trips. A preload (gc-counts.js) counts each process's garbage collections.
//
// Usage (after `npm run build` in each tree, `npm run bench:data` here):
//   node bench/experiments/cpu-side-by-side.js --trees DIR,DIR[,DIR] --scenario transcript|detail|links|list
//        (a tree may be `DIR#<node options>`: that build with extra Node options)
//        [--rate 400] [--seconds 20] [--rounds 3] [--manifest bench/.dataset.json]
// Prints one JSON line per build and round.
'use strict';
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');

const HZ = 100; // clock ticks per second in /proc/<pid>/stat
const GC_PRELOAD = path.join(__dirname, 'gc-counts.js');

function options(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) given[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!given.trees || !given.scenario)
    throw new Error('usage: --trees DIR,DIR --scenario transcript|detail|links|list');
  return {
    trees: given.trees
      .split(',')
      .map((spec) => path.resolve(spec.split('#')[0]) + (spec.includes('#') ? `#${spec.split('#')[1]}` : '')),
    scenario: given.scenario,
    rate: Number(given.rate ?? 400),
    seconds: Number(given.seconds ?? 20),
    rounds: Number(given.rounds ?? 3),
    manifest: JSON.parse(readFileSync(given.manifest ?? path.join(__dirname, '..', '.dataset.json'), 'utf8')),
  };
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const SCENARIOS = {
  transcript: (sample) => () => `/api/v1/sessions/${pick(sample.transcriptSessionIds)}/transcript`,
  detail: (sample) => () => `/api/v1/sessions/${pick(sample.sessionIds)}`,
  links: () => () => '/api/v1/custom-links?sort=last_activity_at&order=desc',
  list: () => () => '/api/v1/sessions',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** CPU ticks per thread name of a process (numbered threads such as "V8Worker" summed). */
function threadTicks(pid) {
  const ticks = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[\d#]+$/, '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks[name] = (ticks[name] ?? 0) + Number(fields[11]) + Number(fields[12]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ticks;
}

async function startBuild(spec, index, manifest, pathOf) {
  // `DIR#--flag --flag`: that build with extra Node options (e.g. a GC setting against the same tree).
  const [tree, extraNodeOptions = ''] = spec.split('#');
  const redisPort = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const gcFile = path.join(require('node:os').tmpdir(), `cpu-side-by-side-${process.pid}-${index}.jsonl`);
  writeFileSync(gcFile, '');
  const port = await freePort();
  // Passed as arguments: some V8 flags are not allowed in NODE_OPTIONS.
  const api = spawn(
    process.execPath,
    [...extraNodeOptions.split(' ').filter(Boolean), path.join(tree, 'dist/src/main.js')],
    {
      cwd: tree,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        APP_ROLE: 'api',
        PORT: String(port),
        DATABASE_URL: manifest.databaseUrl,
        REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
        QUEUE_PREFIX: `cpu-side-by-side-${process.pid}-${index}`,
        RATE_LIMIT_PER_MINUTE: '1000000',
        CURSOR_SECRET: 'bench-cursor-secret-0123456789',
        TRANSCRIPT_DAILY_LIMIT: '100000000',
        // As bench/run.js starts the API, plus the GC counter.
        NODE_OPTIONS: `--max-old-space-size=512 --max-semi-space-size=32 --require ${GC_PRELOAD}`,
        GC_COUNTS_FILE: gcFile,
      },
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${manifest.apiKey}` };
  for (let attempt = 0; ; attempt++) {
    const ok = await fetch(`${origin}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 300) throw new Error(`${tree}: the API did not start`);
    await sleep(100);
  }
  const probe = await fetch(`${origin}${pathOf()}`, { headers });
  if (probe.status !== 200) throw new Error(`${tree}: ${probe.status} for ${pathOf()}`);
  return {
    name: `${path.basename(tree)}${extraNodeOptions ? ` ${extraNodeOptions}` : ''}`,
    api,
    redis,
    origin,
    headers,
    gcFile,
  };
}

function load(build, pathOf, rate, seconds) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: build.origin,
        connections: 10,
        overallRate: rate,
        duration: seconds,
        requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(), headers: build.headers }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** The GC counts the preload appended on the last two SIGUSR2. */
function gcDelta(file) {
  const [first, last] = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(-2)
    .map((line) => JSON.parse(line));
  return Object.fromEntries(
    ['minor', 'major'].map((kind) => [
      kind,
      { count: last[kind].count - first[kind].count, ms: last[kind].ms - first[kind].ms },
    ]),
  );
}

async function main() {
  const opts = options(process.argv.slice(2));
  const pathOf = SCENARIOS[opts.scenario](opts.manifest.sample);
  const builds = [];
  try {
    for (const [index, tree] of opts.trees.entries()) builds.push(await startBuild(tree, index, opts.manifest, pathOf));
    await Promise.all(builds.map((build) => load(build, pathOf, opts.rate, 5)));
    for (let round = 1; round <= opts.rounds; round++) {
      for (const build of builds) build.api.kill('SIGUSR2');
      const before = builds.map((build) => threadTicks(build.api.pid));
      const results = await Promise.all(builds.map((build) => load(build, pathOf, opts.rate, opts.seconds)));
      const after = builds.map((build) => threadTicks(build.api.pid));
      for (const build of builds) build.api.kill('SIGUSR2');
      await sleep(300);
      builds.forEach((build, i) => {
        const requests = results[i].requests.total;
        const usPerRequest = (ticks) => Math.round(((ticks / HZ) * 1e6) / requests);
        const threads = Object.fromEntries(
          Object.keys(after[i])
            .map((name) => [name, usPerRequest(after[i][name] - (before[i][name] ?? 0))])
            .filter(([, us]) => us > 0),
        );
        const gc = gcDelta(build.gcFile);
        const per10k = (count) => Math.round((count / requests) * 1e5) / 10;
        console.log(
          JSON.stringify({
            round,
            build: build.name,
            scenario: opts.scenario,
            requests,
            non2xx: results[i].non2xx,
            cpu_us_per_request: Object.values(threads).reduce((sum, us) => sum + us, 0),
            threads,
            minor_gcs_per_10k: per10k(gc.minor.count),
            major_gcs_per_10k: per10k(gc.major.count),
            gc_pause_us_per_request: Math.round(((gc.minor.ms + gc.major.ms) * 1000) / requests),
          }),
        );
      });
    }
  } finally {
    for (const build of builds) build.api.kill('SIGTERM');
    await sleep(2000);
    for (const build of builds) build.redis.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
