// The link creation jobs (worker processes below the API's CPU priority: one, or with --workers N
// each job with one and then with N) and the mixed scenario: the sessions list's p99 alone and while
// a job renders its cards.
'use strict';
const path = require('node:path');
const { log, sleep } = require('./log');
const { generateLoad, headersOf } = require('./measure');
const { WORKER_NICE, cli, freePort, startChild, stopChild, waitHealthy } = require('./processes');
const { evaluate } = require('./scenarios');

const ROOT = path.join(__dirname, '../..');
const JOB_POLL_MS = 50;
const ACTIVE = ['queued', 'processing'];

/**
 * @typedef {import('../../client/index').components['schemas']['JobResponse']} JobState  A job as GET /custom-link-jobs/{id} answers.
 * @typedef {{ name: string, count: number, thumbnails: boolean, label: string, timeoutMs: number }} JobRequest
 * @typedef {{ name: string, seconds: number | null, status: string, links: number, thumbnails_rendered: number, failure?: string,
 *   workers?: number, seconds_one_worker?: number | null, worker_scaling?: number | null }} JobOutcome
 * @typedef {import('./measure').Target & { children: import('node:child_process').ChildProcess[] }} Api  The API processes.
 */

/**
 * @typedef {object} JobsContext
 * @property {Record<string, string>} env  The service's environment (the worker's, and the CLI's).
 * @property {Api} api
 * @property {import('../data/manifest').Manifest} manifest
 * @property {import('./options').Options} opts
 * @property {string} runTag
 * @property {{ organizationId: string, apiKey: string } | null} jobsOrganization  Null when no job runs.
 */

/**
 * @param {number} count
 * @param {string} label
 * @param {boolean} thumbnails  Drawn by the worker (else provided).
 */
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

/**
 * POST /custom-links (202): the job's id.
 * @param {string} origin
 * @param {Record<string, string>} headers
 * @param {Pick<JobRequest, 'count' | 'thumbnails' | 'label'>} job
 * @returns {Promise<string>}
 */
async function startJob(origin, headers, { count, thumbnails, label }) {
  const res = await fetch(`${origin}/api/v1/custom-links`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': label },
    body: jobBody(count, label, thumbnails),
  });
  if (res.status !== 202)
    throw new Error(`POST /custom-links answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  const created = /** @type {import('../../client/index').components['schemas']['JobEnvelopeResponse']} */ (
    await res.json()
  );
  return created.job.id;
}

/**
 * @param {string} origin
 * @param {Record<string, string>} headers
 * @param {string} id
 * @returns {Promise<JobState>}
 */
async function pollJob(origin, headers, id) {
  const res = await fetch(`${origin}/api/v1/custom-link-jobs/${id}`, { headers });
  if (!res.ok)
    throw new Error(`GET /custom-link-jobs/${id} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return /** @type {JobState} */ (await res.json());
}

/**
 * Polls every 50 ms until `done(state)` or the deadline; returns the last state.
 * @param {string} origin
 * @param {Record<string, string>} headers
 * @param {string} id
 * @param {(state: JobState) => boolean} done
 * @param {number} deadline  Epoch ms.
 */
async function pollUntil(origin, headers, id, done, deadline) {
  for (;;) {
    const state = await pollJob(origin, headers, id);
    if (done(state) || Date.now() > deadline) return state;
    await sleep(JOB_POLL_MS);
  }
}

/**
 * @param {string} name
 * @param {number} started  Epoch ms.
 * @param {JobState} state
 * @returns {JobOutcome}
 */
const outcome = (name, started, state) => ({
  name,
  seconds: Math.round((Date.now() - started) / 10) / 100,
  status: ACTIVE.includes(state.status) ? `timed out (${state.status})` : state.status,
  links: state.createdCount,
  thumbnails_rendered: state.thumbnailGeneratedCount + state.thumbnailFallbackCount,
});

/**
 * Seconds from POST /custom-links (202) to a terminal job status; a failure (a refused request, a dead API) is a job of status `error`.
 * @param {string} origin
 * @param {Record<string, string>} headers
 * @param {JobRequest} job
 * @returns {Promise<JobOutcome>}
 */
async function timeJob(origin, headers, job) {
  const started = Date.now();
  try {
    const id = await startJob(origin, headers, job);
    return outcome(
      job.name,
      started,
      await pollUntil(origin, headers, id, (s) => !ACTIVE.includes(s.status), started + job.timeoutMs),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  ${job.name}: ${message}`);
    return { name: job.name, seconds: null, status: 'error', links: 0, thumbnails_rendered: 0, failure: message };
  }
}

/**
 * The mixed scenario: the sessions list (manifest's organization) for `windowSeconds` alone, then
 * while a job renders its cards (the window starts once the first card is being drawn and must end
 * before the job does), then alone again once the job has finished. p99 alone is the mean of the two.
 * @param {import('./scenarios').MixedScenario} mixed
 * @param {JobsContext & { jobsHeaders: Record<string, string> }} ctx
 * @param {number} windowSeconds
 */
async function runMixed(mixed, ctx, windowSeconds) {
  const { api, jobsHeaders, manifest, opts, runTag } = ctx;
  const origin = api.urls[0];
  /** @param {number} warmup */
  const load = (warmup) =>
    generateLoad(
      {
        urls: api.urls,
        connections: opts.connections,
        warmup,
        seconds: windowSeconds,
        headers: headersOf(manifest.apiKey),
        paths: [mixed.path],
      },
      api,
    );
  log(`${mixed.name}: ${windowSeconds} s windows, alone / during / alone`);
  const before = await load(opts.warmup);
  const started = Date.now();
  const deadline = started + (opts.smoke ? 120_000 : 600_000);
  const id = await startJob(origin, jobsHeaders, { count: opts.jobLinks, thumbnails: true, label: `${runTag}-mixed` });
  /** @param {JobState} s */
  const rendering = (s) =>
    !ACTIVE.includes(s.status) || s.thumbnailProcessingCount + s.thumbnailGeneratedCount + s.thumbnailFallbackCount > 0;
  await pollUntil(origin, jobsHeaders, id, rendering, deadline);
  const during = await load(0);
  const inside = ACTIVE.includes((await pollJob(origin, jobsHeaders, id)).status);
  const job = outcome(
    `${opts.jobLinks}-link job under the list load`,
    started,
    await pollUntil(origin, jobsHeaders, id, (s) => !ACTIVE.includes(s.status), deadline),
  );
  const after = await load(0);
  /** The mean of both, or null when either has none. @param {number | null} a @param {number | null} b */
  const meanOfBoth = (a, b) => (a === null || b === null ? null : (a + b) / 2);
  const alone = {
    p50: meanOfBoth(before.p50_ms, after.p50_ms),
    p99: meanOfBoth(before.p99_ms, after.p99_ms),
    rps: (before.rps + after.rps) / 2,
  };
  const row = {
    name: mixed.name,
    rps: during.rps,
    p50_ms: during.p50_ms,
    p99_ms: during.p99_ms,
    max_ms: during.max_ms,
    baseline_rps: null,
    ratio: null,
    connections: opts.connections,
    instances: opts.instances,
    cpu_ms_per_request:
      during.cpu_seconds === null || during.requests === 0
        ? null
        : Math.round((during.cpu_seconds * 1e6) / during.requests) / 1000,
    baseline_cpu_ms_per_request: null,
    baseline_p50_ms: null,
    baseline_p99_ms: null,
    rps_alone: Math.round(alone.rps * 10) / 10,
    p50_alone_ms: alone.p50,
    p99_alone_ms: alone.p99,
    p99_during_ms: during.p99_ms,
    window_seconds: windowSeconds,
    window_inside_job: inside,
    job_seconds: job.seconds,
    job_status: job.status,
  };
  log(
    `  alone p99 ${before.p99_ms} / ${after.p99_ms} ms, during p99 ${during.p99_ms} ms (${during.rps} req/s); window inside the job: ${inside}; job ${job.status} in ${job.seconds} s`,
  );
  const failures = [before, during, after]
    .filter((r) => r.non2xx > 0 || r.errors > 0)
    .map((r) => ({ name: mixed.name, server: 'service', failure: `non-2xx ${r.non2xx}, errors ${r.errors}` }));
  if (job.status !== 'completed')
    failures.push({ name: mixed.name, server: 'worker', failure: `job ended ${job.status}` });
  return {
    row,
    targets: evaluate(mixed.name, mixed.targets, row),
    failures,
    runs: [before, during, after].map((r, i) => ({ name: mixed.name, server: ['alone', 'during', 'alone'][i], ...r })),
  };
}

/**
 * A fresh organization for the jobs (so the manifest's stays as built; the runner deletes it at the end) and its key.
 * @param {Record<string, string>} env
 * @param {string} runTag
 * @returns {Promise<{ organizationId: string, apiKey: string }>}
 */
async function jobsOrganization(env, runTag) {
  const org = await cli(env, 'org:create', '--name', `Bench jobs ${runTag}`);
  const { key } = await cli(env, 'key:create', '--org', org.id, '--scopes', 'custom_links:write');
  return { organizationId: org.id, apiKey: key };
}

/**
 * The job scenarios and the mixed one in the jobs' organization, with one worker process under
 * `nice`; a small warm-up job first.
 * @param {import('./scenarios').JobScenario[]} jobs
 * @param {import('./scenarios').MixedScenario | null} mixed
 * @param {JobsContext} ctx
 */
async function runJobs(jobs, mixed, ctx) {
  const { env, api, opts, runTag } = ctx;
  if (jobs.length === 0 && !mixed) return { jobs: [], mixed: null, targets: [], failures: [], runs: [] };
  if (!ctx.jobsOrganization) throw new Error('the jobs have no organization');
  const jobsHeaders = headersOf(ctx.jobsOrganization.apiKey);
  // The workers of the tree under test (--api-tree), as its API processes.
  const tree = opts.apiTree ?? ROOT;
  /** @type {import('node:child_process').ChildProcess[]} */
  const workers = [];
  const startWorker = async () => {
    const port = await freePort();
    const worker = startChild(
      workers.length === 0 ? 'worker' : `worker${workers.length + 1}`,
      path.join(tree, 'dist/src/main.js'),
      { ...env, APP_ROLE: 'worker', PORT: String(port) },
      { nice: WORKER_NICE, cwd: tree },
    );
    workers.push(worker);
    await waitHealthy(worker, `http://127.0.0.1:${port}/healthz`);
  };
  const origin = api.urls[0];
  try {
    await startWorker();
    const timeoutMs = opts.smoke ? 120_000 : 600_000;
    log(`jobs: warm-up job of ${Math.min(50, opts.jobLinks)} links`);
    await timeJob(origin, jobsHeaders, {
      name: 'warm-up',
      count: Math.min(50, opts.jobLinks),
      thumbnails: false,
      label: `${runTag}-warm-up`,
      timeoutMs,
    });
    /** @type {ReturnType<typeof evaluate>} */
    const targets = [];
    /** @type {{ name: string, server: string, failure: string }[]} */
    const failures = [];
    /** @param {string} pass  Keeps each pass's idempotency keys apart. */
    const runPass = async (pass) => {
      /** @type {Omit<JobOutcome, 'failure'>[]} */
      const results = [];
      for (const [i, job] of jobs.entries()) {
        log(`${job.name} (${workers.length} worker${workers.length === 1 ? '' : 's'})`);
        const { failure, ...result } = await timeJob(origin, jobsHeaders, {
          name: job.name,
          count: opts.jobLinks,
          thumbnails: job.thumbnails,
          label: `${runTag}-job-${i}${pass}`,
          timeoutMs,
        });
        log(
          `  ${result.status} in ${result.seconds} s (${result.links} links, ${result.thumbnails_rendered} cards rendered)`,
        );
        results.push(result);
        if (failure) failures.push({ name: job.name, server: 'api', failure });
      }
      return results;
    };
    // --workers N: each job with one worker first, then with N (the figures of both in the row).
    const alone = opts.workers > 1 ? await runPass('') : null;
    if (alone) {
      while (workers.length < opts.workers) await startWorker();
      // The new workers warm up too (cards rendered, so their renderers are), before the jobs they are timed on.
      log(`jobs: warm-up job of ${Math.min(50, opts.jobLinks)} links with rendered cards, ${workers.length} workers`);
      await timeJob(origin, jobsHeaders, {
        name: 'warm-up',
        count: Math.min(50, opts.jobLinks),
        thumbnails: true,
        label: `${runTag}-warm-up-w${opts.workers}`,
        timeoutMs,
      });
    }
    const results = (await runPass(alone ? `-w${opts.workers}` : '')).map((result, i) =>
      alone ? againstOneWorker(result, alone[i], opts.workers) : result,
    );
    for (const [i, job] of jobs.entries()) targets.push(...evaluate(job.name, job.targets, results[i]));
    let mixedResult = null;
    if (mixed) {
      // Windows short enough to fit inside the job: 60 % of a rendering job's time in this run.
      const rendered = results.find((r) => jobs.find((j) => j.name === r.name)?.thumbnails && r.seconds !== null);
      const renderedSeconds = rendered?.seconds ?? null;
      const windowSeconds = Math.max(
        1,
        Math.min(opts.seconds, renderedSeconds !== null ? Math.floor(renderedSeconds * 0.6) : opts.seconds),
      );
      mixedResult = await runMixed(mixed, { ...ctx, jobsHeaders }, windowSeconds);
      targets.push(...mixedResult.targets);
      failures.push(...mixedResult.failures);
    }
    return { jobs: results, mixed: mixedResult?.row ?? null, targets, failures, runs: mixedResult?.runs ?? [] };
  } finally {
    await Promise.all(workers.map((worker) => stopChild(worker)));
  }
}

/**
 * A job's outcome with N workers, and with one: its seconds, and `worker_scaling` = one ÷ N.
 * @param {Omit<JobOutcome, 'failure'>} many
 * @param {Omit<JobOutcome, 'failure'>} one
 * @param {number} workers
 */
const againstOneWorker = (many, one, workers) => ({
  ...many,
  workers,
  seconds_one_worker: one.seconds,
  worker_scaling:
    many.seconds !== null && one.seconds !== null && many.seconds > 0
      ? Math.round((one.seconds / many.seconds) * 100) / 100
      : null,
});

module.exports = { jobsOrganization, runJobs };
