// The processes a run starts (API instances, raw baselines, the worker), their environment, and what
// the runner reads of them in /proc (memory, CPU time).
'use strict';
const { spawn, execFile } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { Redis } = require('ioredis');
const { Client } = require('pg');
const { log, sleep } = require('./log');

const ROOT = path.join(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/src/cli.js');
const HUGE = '100000000';
/** As API pods run (docker/compose.yaml, docs/DECISIONS.md "API memory"); the raw baselines get the same heap settings. */
const API_NODE_OPTIONS = '--max-old-space-size=512 --max-semi-space-size=32';
/** The worker's CPU priority: below the API's, as separate worker pods would not take the API's cores. */
const WORKER_NICE = 10;
/** Kernel clock ticks per second (utime and stime in /proc/<pid>/stat): 100 on Linux. */
const CLOCK_TICKS = 100;

/**
 * @typedef {import('node:child_process').ChildProcess & { label: string, tail: string[], stopping?: boolean }} Child
 *   A process the run started: its name in our log, the last lines it wrote, and whether we stop it.
 */

/** @type {Set<import('node:child_process').ChildProcess & { stopping?: boolean }>} */
const children = new Set();

/**
 * Starts `node script` with this env in `cwd` (under `nice -n <nice>` when given, so that every
 * thread it starts inherits the priority); its output goes to our stderr, prefixed, and its tail is kept for errors.
 * @param {string} label
 * @param {string} script
 * @param {NodeJS.ProcessEnv} env
 * @param {{ nice?: number, cwd?: string }} [options]
 * @returns {Child}
 */
function startChild(label, script, env, { nice = 0, cwd = ROOT } = {}) {
  const [command, args] =
    nice > 0 ? ['nice', ['-n', String(nice), process.execPath, script]] : [process.execPath, [script]];
  /** @type {string[]} */
  const tail = [];
  const child = Object.assign(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }), {
    label,
    tail,
    stopping: false,
  });
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

/**
 * A child started elsewhere (the load generators) that a stop or an interrupt must end too.
 * @template {import('node:child_process').ChildProcess} C
 * @param {C} child
 * @returns {C & { stopping: boolean }}
 */
function adopt(child) {
  const adopted = Object.assign(child, { stopping: true });
  children.add(adopted);
  adopted.once('exit', () => children.delete(adopted));
  return adopted;
}

/** @param {import('node:child_process').ChildProcess} child */
const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * @param {import('node:child_process').ChildProcess & { stopping?: boolean }} child
 * @param {number} [graceMs]  After it, SIGKILL.
 */
async function stopChild(child, graceMs = 10_000) {
  if (exited(child)) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  child.stopping = true;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

const stopChildren = () => Promise.all([...children].map((child) => stopChild(child)));

function killChildrenNow() {
  for (const child of children) {
    child.stopping = true;
    child.kill('SIGKILL');
  }
}

/**
 * @param {Child} child
 * @param {string} url
 * @param {number} [timeoutMs]
 */
async function waitHealthy(child, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(child))
      throw new Error(
        `${child.label} exited (${child.exitCode ?? child.signalCode}) before answering:\n${child.tail.join('\n')}`,
      );
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`${child.label} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * The service's environment: the manifest's database, our Redis and queues, every limit far above the load.
 * @param {Pick<import('../data/manifest').Manifest, 'databaseUrl'>} manifest
 * @param {{ redis: string }} opts
 * @param {string} queuePrefix
 * @returns {Record<string, string>}
 */
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
    // One load generator is one client opening a few hundred links.
    LINK_OPENS_PER_CLIENT_PER_MINUTE: HUGE,
    LINK_OPENS_PER_LINK_PER_MINUTE: HUGE,
  };
}

/**
 * The project CLI (dist/src/cli.js); each command prints one JSON object.
 * @param {NodeJS.ProcessEnv} env
 * @param {...string} args
 * @returns {Promise<any>} The command's JSON answer, which the caller knows the shape of.
 */
function cli(env, ...args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`cli ${args[0]} failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

/** @param {string} url */
async function flushRedis(url) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/**
 * One statement on a connection of its own.
 * @param {string} databaseUrl
 * @param {string} text
 * @param {unknown[]} [params]
 * @returns {Promise<any[]>} The rows, which the caller knows the shape of.
 */
async function sql(databaseUrl, text, params = []) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query(text, params)).rows;
  } finally {
    await db.end();
  }
}

/**
 * A field of /proc/<pid>/status in MB, or null when the process is gone.
 * @param {number} pid
 * @param {'VmRSS' | 'VmHWM'} field
 */
const procStatusMb = (pid, field) => {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
};

/**
 * Seconds of CPU (user + system, every thread) the processes have used so far; null when one is gone.
 * @param {number[]} pids
 */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The fields after the command name, which is in parentheses and may hold spaces.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').slice(-1)[0].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks / CLOCK_TICKS;
}

/**
 * CPU seconds used so far by each PostgreSQL process of this machine (server and backends), by pid.
 * @returns {Map<number, number>}
 */
function postgresCpu() {
  /** @type {Map<number, number>} */
  const used = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ').slice(-1)[0].split(' ');
      used.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // The process ended meanwhile.
    }
  }
  return used;
}

/**
 * PostgreSQL's CPU seconds from now until `stop()` (backends that ended meanwhile are not counted;
 * the services keep theirs in pools).
 */
function watchPostgresCpu() {
  const before = postgresCpu();
  return {
    stop: () => {
      let seconds = 0;
      for (const [pid, used] of postgresCpu()) seconds += used - (before.get(pid) ?? 0);
      return Math.round(seconds * 100) / 100;
    },
  };
}

/**
 * Samples VmRSS of each process every second; `stop()` adds each one's high-water mark (VmHWM) and returns the highest of both.
 * @param {number[]} pids
 */
function watchRss(pids) {
  const sample = () => Math.max(0, ...pids.map((pid) => procStatusMb(pid, 'VmRSS') ?? 0));
  let sampled = sample();
  const timer = setInterval(() => (sampled = Math.max(sampled, sample())), 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const hwm = Math.max(0, ...pids.map((pid) => procStatusMb(pid, 'VmHWM') ?? 0)) || null;
      sampled = Math.max(sampled, sample());
      return { vmhwm_mb: hwm, sampled_vmrss_mb: sampled || null, peak_rss_mb: Math.max(hwm ?? 0, sampled) || null };
    },
  };
}

module.exports = {
  API_NODE_OPTIONS,
  adopt,
  WORKER_NICE,
  startChild,
  stopChild,
  stopChildren,
  killChildrenNow,
  waitHealthy,
  freePort,
  serviceEnv,
  cli,
  flushRedis,
  sql,
  procStatusMb,
  watchPostgresCpu,
  cpuSeconds,
  watchRss,
};
