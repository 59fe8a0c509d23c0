// Database lifecycle: existence, stored manifest (a comment on the database), creation, migrations, CLI;
// the build's connections and their session settings.
'use strict';
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Client } = require('pg');
const path = require('node:path');
const { ROOT, DIST, GENERATOR_VERSION } = require('./constants');
const { log } = require('./log');

const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The service's Citus cluster helpers (dist/, which main() checks is built). */
const citusCluster = () => require(path.join(DIST, 'database/citus-cluster'));
/**
 * BENCH_CITUS_WORKERS=host:port,…: ADMIN_URL's server is the coordinator of a Citus cluster with these
 * workers; the dataset is built there, then distributed (docs/scaling.md, Citus against one PostgreSQL).
 * @returns {{ host: string; port: number }[]}
 */
const citusWorkers = () => citusCluster().parseCitusNodes(process.env.BENCH_CITUS_WORKERS);
/** The dataset is built on a Citus cluster (BENCH_CITUS_WORKERS set). */
const onCitus = () => citusWorkers().length > 0;
/** @param {string} name */
const databaseUrl = (name) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const execFileAsync = promisify(execFile);

/**
 * @template T
 * @param {string} url
 * @param {(client: Client) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withClient(url, fn) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The manifest stored with the database (COMMENT ON DATABASE), or null.
 * @param {Client} admin
 * @param {string} database
 * @returns {Promise<import('./manifest').Manifest | null>}
 */
async function storedManifest(admin, database) {
  const { rows } = await admin.query(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [database],
  );
  if (rows.length === 0) return null;
  try {
    const manifest = JSON.parse(rows[0].comment ?? 'null');
    return manifest && manifest.generatorVersion === GENERATOR_VERSION ? manifest : null;
  } catch {
    return null;
  }
}

/**
 * @param {Client} admin
 * @param {string} database
 */
async function recreateDatabase(admin, database) {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  if (!onCitus()) {
    await admin.query(`CREATE DATABASE ${database}`);
    return;
  }
  const { dropWorkerDatabases, createCitusDatabase } = citusCluster();
  await dropWorkerDatabases(ADMIN_URL, database, citusWorkers());
  await createCitusDatabase(ADMIN_URL, database, citusWorkers());
}

/**
 * The service's distribution step, on Citus once the dataset is loaded (creating the shards copies
 * the rows; loading into plain tables first keeps the build's set-based SQL as it is).
 * @param {string} url
 */
async function distribute(url) {
  log(`  ${JSON.stringify(await cli(url, 'db:distribute'))}`);
}

/**
 * The project's migration command: each migration in its own transaction, or none for one that builds an index concurrently.
 * @param {string} url
 */
async function runMigrations(url) {
  await cli(url, 'migration:run');
}

/**
 * The project CLI (dist/src/cli.js); each command prints one JSON object.
 * @param {string} url
 * @param {...string} args
 * @returns {Promise<any>} The command's JSON answer, which the caller knows the shape of.
 */
async function cli(url, ...args) {
  // A Redis of its own too: without REDIS_URL the CLI would start the checkout's embedded one (./.data).
  const env = {
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14',
    LOG_LEVEL: 'error',
  };
  const { stdout } = await execFileAsync(process.execPath, ['dist/src/cli.js', ...args], { cwd: ROOT, env });
  return JSON.parse(stdout);
}

/**
 * @param {Client} db
 * @param {number} seed  setseed()'s, so that a build is repeatable.
 */
async function sessionSettings(db, seed) {
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET jit = off`);
  await db.query(`SET work_mem = '512MB'`);
  await db.query(`SET maintenance_work_mem = '1GB'`);
  await db.query(`SET timezone = 'UTC'`);
  await db.query(`SELECT setseed($1)`, [seed]);
}

/**
 * Two connections with the build's session settings (the machine has two cores: independent work runs side by side).
 * @param {string} url
 */
async function connectPair(url) {
  const pair = [new Client({ connectionString: url }), new Client({ connectionString: url })];
  for (const [i, db] of pair.entries()) {
    await db.connect();
    await sessionSettings(db, 0.2026 + i / 10);
    if (process.env.BENCH_DATA_TRACE) traceStatements(db, i === 0 ? 'A' : 'B');
  }
  return pair;
}

/**
 * BENCH_DATA_TRACE=1: logs every statement that takes over a second, with its first line.
 * @param {Client} db
 * @param {string} label
 */
function traceStatements(db, label) {
  /** @type {(...args: any[]) => Promise<unknown>} */
  const query = db.query.bind(db);
  /** @param {...any} args */
  const timed = async (...args) => {
    const t0 = Date.now();
    const result = await query(...args);
    const text = typeof args[0] === 'string' ? args[0] : args[0].text;
    if (Date.now() - t0 > 1000)
      log(`  [${label}] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${text.trim().split('\n')[0].slice(0, 110)}`);
    return result;
  };
  db.query = /** @type {Client['query']} */ (timed);
}

module.exports = {
  ADMIN_URL,
  databaseUrl,
  withClient,
  storedManifest,
  recreateDatabase,
  onCitus,
  distribute,
  runMigrations,
  cli,
  connectPair,
};
