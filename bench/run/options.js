// The runner's options and the dataset manifest it reads.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const BENCH = path.join(__dirname, '..');

class UsageError extends Error {}

/** @typedef {ReturnType<typeof parseArgs>} Options  The run's options, defaults applied. */

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ seconds?: number, warmup?: number, connections?: number, instances?: number, workers?: number, jobLinks?: number, only?: string, manifest?: string, out?: string, redis?: string, apiTree?: string, smoke?: boolean, check?: boolean, prime?: boolean }} */
  const given = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    /** @param {number} min */
    const number = (min) => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < min) throw new UsageError(`${arg} must be a number >= ${min}`);
      return n;
    };
    if (arg === '--seconds') given.seconds = number(1);
    else if (arg === '--warmup') given.warmup = number(0);
    else if (arg === '--connections') given.connections = number(1);
    else if (arg === '--instances') given.instances = Math.floor(number(1));
    else if (arg === '--workers') given.workers = Math.floor(number(1));
    else if (arg === '--job-links') given.jobLinks = Math.min(500, number(1));
    else if (arg === '--only') given.only = value().toLowerCase();
    else if (arg === '--manifest') given.manifest = path.resolve(value());
    else if (arg === '--out') given.out = path.resolve(value());
    else if (arg === '--redis') given.redis = value();
    else if (arg === '--api-tree') given.apiTree = path.resolve(value());
    else if (arg === '--smoke') given.smoke = true;
    else if (arg === '--check') given.check = true;
    else if (arg === '--prime') given.prime = true;
    else throw new UsageError(`unknown option ${arg}`);
  }
  const smoke = Boolean(given.smoke);
  return {
    smoke,
    check: Boolean(given.check) && !smoke,
    seconds: given.seconds ?? (smoke ? 1 : 10),
    warmup: given.warmup ?? (smoke ? 0 : 3),
    /** Every path of a read requested once before its warm-up: the window sees the caches a steady state has (the count cache). */
    prime: Boolean(given.prime),
    connections: given.connections ?? 20,
    instances: given.instances ?? 1,
    workers: given.workers ?? 1,
    jobLinks: given.jobLinks ?? (smoke ? 50 : 500),
    only: given.only ?? null,
    manifest: given.manifest ?? path.join(BENCH, smoke ? '.dataset.engagement_bench_smoke.json' : '.dataset.json'),
    out: given.out ?? path.join(BENCH, 'results', smoke ? 'smoke.json' : 'latest.json'),
    /** Results asked for elsewhere (another dataset, a scale, Citus): RESULTS.md is left as it is. */
    outGiven: given.out !== undefined,
    redis: given.redis ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14',
    apiTree: given.apiTree ?? null,
  };
}

/**
 * @param {string} file
 * @returns {import('../data/manifest').Manifest}
 */
function readManifest(file) {
  if (!existsSync(file))
    throw new Error(`no dataset manifest at ${file}: build one with node bench/data.js (see its header)`);
  // A file of unknown age and origin: what the runner needs of it is checked before it is a Manifest.
  /** @type {Record<string, any>} */
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Record<string, any>} */
  const sample = manifest.sample ?? {};
  const missing = ['databaseUrl', 'organizationId', 'apiKey', 'counts'].filter((k) => !manifest[k]);
  for (const list of ['sessionIds', 'transcriptSessionIds', 'accountDomains', 'emailSubstrings', 'linkIds']) {
    if (!Array.isArray(sample[list]) || sample[list].length === 0) missing.push(`sample.${list}`);
  }
  if (!sample.largeCampaignId) missing.push('sample.largeCampaignId');
  // The tenant (a smaller organization beside the main one) is optional (absent or null); when present it is whole.
  const { tenant } = manifest;
  if (tenant !== undefined && tenant !== null) {
    for (const field of ['organizationId', 'apiKey']) if (!tenant?.[field]) missing.push(`tenant.${field}`);
    if (!Number.isFinite(tenant?.counts?.sessions)) missing.push('tenant.counts.sessions');
    if (!Array.isArray(tenant?.sample?.emailSubstrings) || tenant.sample.emailSubstrings.length === 0)
      missing.push('tenant.sample.emailSubstrings');
  }
  if (missing.length > 0) throw new Error(`manifest ${file} lacks ${missing.join(', ')}`);
  return /** @type {import('../data/manifest').Manifest} */ (manifest);
}

module.exports = { UsageError, parseArgs, readManifest };
