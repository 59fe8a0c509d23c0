// Measuring one load scenario: a preflight request, then autocannon in a child process
// (load-generator.js) against the service and, for a hot read, its raw baseline in ABBA order.
'use strict';
const { fork } = require('node:child_process');
const path = require('node:path');
const { log } = require('./log');
const { compareHeaderNames, headerMismatch } = require('./headers');
const { adopt, cpuSeconds } = require('./processes');
const { eventBodies, pick } = require('./requests');

const GENERATOR = path.join(__dirname, 'load-generator.js');

/**
 * @typedef {import('./scenarios').LoadScenario} LoadScenario
 * @typedef {import('./load-generator').LoadSpec} LoadSpec
 * @typedef {import('./load-generator').Measured} Measured
 * @typedef {import('./load-generator').GeneratorMessage} GeneratorMessage
 * @typedef {{ urls: string[], pids: number[] }} Target  Where a measurement sends its load, and whose CPU time it reads.
 * @typedef {'service' | 'raw' | 'one'} Server  The API instances, their raw baselines, or the first API instance alone.
 */

/**
 * @typedef {object} Run  One measurement of a scenario against one target (failed before loading: no figures).
 * @property {Server} server
 * @property {number} instances
 * @property {number} [connections]
 * @property {number} rps
 * @property {number | null} p50_ms
 * @property {number | null} p99_ms
 * @property {number | null} max_ms
 * @property {number} [requests]
 * @property {number} non2xx
 * @property {number} errors
 * @property {Record<string, number>} [status_codes]
 * @property {number | null} [cpu_seconds]
 * @property {string | null} failure
 * @property {unknown} [body]  The preflight's answer (dropped once the scenario is named).
 */

/**
 * @typedef {object} ScenarioRow  A scenario's figures in the results (service side the mean of its runs).
 * @property {string} name
 * @property {string} [key]  Its name before any rename (the same at every dataset size).
 * @property {number | null} rps
 * @property {number | null} p50_ms
 * @property {number | null} p99_ms
 * @property {number | null} max_ms
 * @property {number | null} baseline_rps
 * @property {number | null} ratio  Service req/s ÷ raw req/s.
 * @property {number} connections
 * @property {number} instances
 * @property {number | null} cpu_ms_per_request
 * @property {number | null} baseline_cpu_ms_per_request
 * @property {number | null} baseline_p50_ms
 * @property {number | null} baseline_p99_ms
 * @property {number | null} [tail]  p99 ÷ p50.
 * @property {number | null} [baseline_tail]  The raw baseline's p99 ÷ p50 in the same run.
 * @property {{ path: string, status: [number, number], only_service: string[], only_raw: string[] }} [header_names]
 *   A single-row read's answer from both sides: the header names only one of them sent.
 * @property {string | null} [header_failure]  Why the header names differ, or null.
 * @property {number | null} [rps_one_instance]
 * @property {number | null} [p99_ms_one_instance]
 * @property {number | null} [scaling]
 */

/** @param {string} apiKey */
const headersOf = (apiKey) => ({ authorization: `Bearer ${apiKey}` });

/**
 * One plain request of the scenario: fails fast with the status and body, else returns the JSON body.
 * @param {string} origin
 * @param {LoadScenario} scenario
 * @param {Record<string, string>} headers
 * @returns {Promise<{ failure?: string, body?: unknown }>}
 */
async function preflight(origin, scenario, headers) {
  /** @type {RequestInit} */
  const init = scenario.events
    ? {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: eventBodies({ ...scenario.events, tag: `${scenario.events.tag}-preflight` })(),
      }
    : { headers, redirect: 'manual' };
  const res = await fetch(origin + pick(scenario.paths), init);
  const text = await res.text();
  if (scenario.expectStatus !== undefined)
    return res.status === scenario.expectStatus ? { body: null } : { failure: `${res.status} ${text.slice(0, 500)}` };
  if (!res.ok) return { failure: `${res.status} ${text.slice(0, 500)}` };
  const body = JSON.parse(text);
  const problem = scenario.check ? scenario.check(body) : null;
  return problem ? { failure: problem } : { body };
}

/**
 * Every distinct path of a read requested once, four at a time (--prime): what a first request of
 * each fills (a cached total) is filled before the warm-up, whatever it costs at the dataset's size.
 * @param {string} origin
 * @param {LoadScenario} scenario
 * @param {Record<string, string>} headers
 */
async function prime(origin, scenario, headers) {
  const paths = [...new Set(scenario.paths)];
  const next = async () => {
    for (let path = paths.pop(); path !== undefined; path = paths.pop())
      await (await fetch(origin + path, { headers, redirect: 'manual' })).arrayBuffer();
  };
  await Promise.all([next(), next(), next(), next()]);
}

/**
 * After a load with non-2xx answers: a few requests of the same kind, to show one.
 * @param {string} origin
 * @param {LoadScenario} scenario
 * @param {Record<string, string>} headers
 */
async function sampleFailure(origin, scenario, headers) {
  for (let i = 0; i < 20; i++) {
    const { failure } = await preflight(origin, scenario, headers).catch((error) => ({ failure: String(error) }));
    if (failure) return failure;
  }
  return null;
}

/** @type {import('node:child_process').ChildProcess | null} */
let generator = null;

/** The load generator process, started on first use and kept for the run (stopped with the other children). */
function loadGenerator() {
  if (generator === null || generator.exitCode !== null || generator.signalCode !== null) {
    generator = adopt(fork(GENERATOR, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }
  return generator;
}

/**
 * One measurement by the load generator (warm-up, then the measured window) against `target.urls`,
 * with the CPU time `target.pids` used over the measured window.
 * @param {Omit<LoadSpec, 'urls'> & { urls: string[] }} spec
 * @param {Target} target
 * @returns {Promise<Measured & { cpu_seconds: number | null }>}
 */
function generateLoad(spec, target) {
  const child = loadGenerator();
  return new Promise((resolve, reject) => {
    /** @type {number | null} */
    let cpuAtStart = null;
    const stop = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    /** @param {GeneratorMessage} message */
    const onMessage = (message) => {
      if (message.type === 'measuring') cpuAtStart = cpuSeconds(target.pids);
      else if (message.type === 'failed') {
        stop();
        reject(new Error(`load generator: ${message.error}`));
      } else {
        const cpuAtEnd = cpuSeconds(target.pids);
        const cpu = cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart;
        stop();
        resolve({ ...message.result, cpu_seconds: cpu === null ? null : Math.round(cpu * 100) / 100 });
      }
    };
    /**
     * @param {number | null} code
     * @param {NodeJS.Signals | null} signal
     */
    const onExit = (code, signal) => {
      stop();
      reject(new Error(`load generator exited (${signal ?? code}) without a result`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ ...spec, urls: spec.urls.length === 1 ? spec.urls[0] : spec.urls });
  });
}

/**
 * Preflight and load of one scenario against one target (its URLs and process ids); a failed preflight skips the load.
 * @param {Target} target
 * @param {LoadScenario & { apiKey: string }} scenario
 * @param {import('./options').Options} opts
 * @param {Server} server
 * @param {number} seq  The run's place in the scenario's order (event ids stay unique across runs).
 * @returns {Promise<Run>}
 */
async function runOne(target, scenario, opts, server, seq) {
  const headers = headersOf(scenario.apiKey);
  /** @type {{ failure?: string, body?: unknown }} */
  const checked = await preflight(target.urls[0], scenario, headers).catch((error) => ({ failure: String(error) }));
  if (checked.failure) {
    log(`  ${server}: FAILED before loading: ${checked.failure}`);
    return {
      server,
      instances: target.urls.length,
      rps: 0,
      p50_ms: null,
      p99_ms: null,
      max_ms: null,
      non2xx: 0,
      errors: 1,
      failure: checked.failure,
    };
  }
  if (opts.prime && !scenario.events) await prime(target.urls[0], scenario, headers);
  const connections = scenario.connections ?? opts.connections;
  const events = scenario.events ? { ...scenario.events, tag: `${scenario.events.tag}-${seq}` } : undefined;
  const seconds = Math.max(opts.seconds, scenario.minSeconds ?? 0);
  const measured = await generateLoad(
    {
      urls: target.urls,
      connections,
      warmup: opts.warmup,
      seconds,
      headers,
      paths: scenario.paths,
      events,
      expectStatus: scenario.expectStatus,
    },
    target,
  );
  /** @type {Run} */
  const run = { server, instances: target.urls.length, connections, ...measured, failure: null, body: checked.body };
  if (run.non2xx > 0 || run.errors > 0) {
    run.failure =
      (await sampleFailure(target.urls[0], scenario, headers)) ??
      `non-2xx ${run.non2xx}, errors ${run.errors}, codes ${JSON.stringify(run.status_codes)}`;
    log(`  ${server}: FAILED: ${run.non2xx} non-2xx, ${run.errors} errors; e.g. ${run.failure}`);
  }
  return run;
}

/**
 * @param {number | null} value
 * @param {number} [digits]
 */
const round = (value, digits = 1) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/**
 * `a ÷ b` to the hundredth, or null without both or with b not positive.
 * @param {number | null} a
 * @param {number | null} b
 */
const ratioOf = (a, b) => (a !== null && b !== null && b > 0 ? round(a / b, 2) : null);

/**
 * The figures of one side over its runs: mean req/s and percentiles, the highest max, CPU per request over all of them.
 * @param {Run[]} runs
 */
function meanOf(runs) {
  /** @param {'rps' | 'p50_ms' | 'p99_ms'} key */
  const mean = (key) => {
    let sum = 0;
    for (const r of runs) {
      const value = r[key];
      if (value === null || value === undefined) return null;
      sum += value;
    }
    return round(sum / runs.length);
  };
  const requests = runs.reduce((sum, r) => sum + (r.requests ?? 0), 0);
  const cpu = runs.some((r) => r.cpu_seconds === null || r.cpu_seconds === undefined)
    ? null
    : runs.reduce((sum, r) => sum + (r.cpu_seconds ?? 0), 0);
  return {
    rps: mean('rps'),
    p50_ms: mean('p50_ms'),
    p99_ms: mean('p99_ms'),
    max_ms: runs.some((r) => r.max_ms === null) ? null : Math.max(...runs.map((r) => r.max_ms ?? 0)),
    cpu_ms_per_request: cpu === null || requests === 0 ? null : round((cpu * 1000) / requests, 3),
  };
}

/**
 * The order of a scenario's runs. A hot read runs service and raw in ABBA order, so neither gains
 * from going first or second (the caches, the JIT and the machine's drift are shared); with several
 * API instances, its runs against the first instance alone (`one`) sit symmetrically inside them.
 * @param {LoadScenario} scenario
 * @param {number} instances
 * @returns {Server[]}
 */
function runOrder(scenario, instances) {
  if (!scenario.read) return ['service'];
  if (instances === 1) return scenario.baseline ? ['service', 'raw', 'raw', 'service'] : ['service'];
  return scenario.baseline ? ['service', 'one', 'raw', 'raw', 'one', 'service'] : ['service', 'one', 'one', 'service'];
}

/**
 * One scenario: its runs against each target, the row of its figures, and the runs kept for the
 * results file. `context` (the manifest, the run's tag) goes to the scenario's `finish`.
 * @param {LoadScenario & { apiKey: string }} scenario
 * @param {{ service: Target, one: Target, raw: Target | null }} targets
 * @param {import('./options').Options} opts
 * @param {{ manifest: import('../data/manifest').Manifest, runTag: string }} context
 */
async function runScenario(scenario, targets, opts, context) {
  const order = runOrder(scenario, opts.instances);
  log(
    `${scenario.name}: ${scenario.connections ?? opts.connections} connections, ${opts.warmup} s warm-up, ${opts.seconds} s, runs ${order.join(', ')}`,
  );
  /** @type {Record<Server, Run[]>} */
  const runs = { service: [], raw: [], one: [] };
  // Before the load: what the service and its raw baseline answer the same request with.
  const headerNames =
    scenario.sameHeaders && targets.raw
      ? await compareHeaderNames(
          targets.service.urls[0],
          targets.raw.urls[0],
          scenario.paths[0],
          headersOf(scenario.apiKey),
        )
      : null;
  const headerFailure = headerNames ? headerMismatch(headerNames) : null;
  if (headerFailure) log(`  FAILED: ${headerFailure}`);
  const watching = scenario.watch ? scenario.watch(context) : null;
  for (const [seq, server] of order.entries()) {
    const target = targets[server];
    if (!target) throw new Error(`${scenario.name}: no ${server} processes were started`);
    runs[server].push(await runOne(target, scenario, opts, server, seq));
  }
  const watched = watching ? await watching.stop() : {};
  const body = runs.service[0].body;
  const name = scenario.rename && body ? scenario.rename(body) : scenario.name;
  const all = [...runs.service, ...runs.one, ...runs.raw];
  for (const run of all) delete run.body;
  const service = meanOf(runs.service);
  const raw = runs.raw.length > 0 ? meanOf(runs.raw) : null;
  const one = runs.one.length > 0 ? meanOf(runs.one) : null;
  /** @type {ScenarioRow & import('./scenarios').Figures} */
  const row = {
    name,
    key: scenario.key,
    rps: service.rps,
    p50_ms: service.p50_ms,
    p99_ms: service.p99_ms,
    max_ms: service.max_ms,
    baseline_rps: raw ? raw.rps : null,
    ratio: raw ? ratioOf(service.rps, raw.rps) : null,
    connections: scenario.connections ?? opts.connections,
    instances: opts.instances,
    cpu_ms_per_request: service.cpu_ms_per_request,
    baseline_cpu_ms_per_request: raw ? raw.cpu_ms_per_request : null,
    // The baseline's own tail on the same machine in the same run: what the machine gives a server
    // that does nothing but the work, against which the service's p99 / p50 reads.
    baseline_p50_ms: raw ? raw.p50_ms : null,
    baseline_p99_ms: raw ? raw.p99_ms : null,
    tail: ratioOf(service.p99_ms, service.p50_ms),
    baseline_tail: raw ? ratioOf(raw.p99_ms, raw.p50_ms) : null,
    ...(headerNames ? { header_names: headerNames, header_failure: headerFailure } : {}),
    ...(one
      ? {
          rps_one_instance: one.rps,
          p99_ms_one_instance: one.p99_ms,
          scaling: ratioOf(service.rps, one.rps),
        }
      : {}),
  };
  Object.assign(row, watched);
  if (scenario.finish) Object.assign(row, await scenario.finish({ ...context, row, runs: all }));
  log(
    `  ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, max ${row.max_ms} ms${raw ? `; raw ${raw.rps} req/s, ratio ${row.ratio}` : ''}${one ? `; one instance ${one.rps} req/s` : ''}`,
  );
  return { scenario, row, runs: all.map((run) => ({ name, ...run })) };
}

module.exports = { headersOf, generateLoad, runScenario };
