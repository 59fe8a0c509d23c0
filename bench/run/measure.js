// Measuring one load scenario: a preflight request, then autocannon in a child process
// (load-generator.js) against the service and, for a hot read, its raw baseline in ABBA order.
'use strict';
const { fork } = require('node:child_process');
const path = require('node:path');
const { log } = require('./log');
const { adopt, cpuSeconds } = require('./processes');
const { eventBodies, pick } = require('./requests');

const GENERATOR = path.join(__dirname, 'load-generator.js');

const headersOf = (apiKey) => ({ authorization: `Bearer ${apiKey}` });

/** One plain request of the scenario: fails fast with the status and body, else returns the JSON body. */
async function preflight(origin, scenario, headers) {
  const init = scenario.events
    ? {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: eventBodies({ ...scenario.events, tag: `${scenario.events.tag}-preflight` })(),
      }
    : { headers };
  const res = await fetch(origin + pick(scenario.paths), init);
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
 */
function generateLoad(spec, target) {
  const child = loadGenerator();
  return new Promise((resolve, reject) => {
    let cpuAtStart = null;
    const finish = (fn, value) => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn(value);
    };
    const onMessage = (message) => {
      if (message.type === 'measuring') cpuAtStart = cpuSeconds(target.pids);
      else if (message.type === 'failed') finish(reject, new Error(`load generator: ${message.error}`));
      else if (message.type === 'done') {
        const cpuAtEnd = cpuSeconds(target.pids);
        const cpu = cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart;
        finish(resolve, { ...message.result, cpu_seconds: cpu === null ? null : Math.round(cpu * 100) / 100 });
      }
    };
    const onExit = (code, signal) =>
      finish(reject, new Error(`load generator exited (${signal ?? code}) without a result`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ ...spec, urls: spec.urls.length === 1 ? spec.urls[0] : spec.urls });
  });
}

/** Preflight and load of one scenario against one target (its URLs and process ids); a failed preflight skips the load. */
async function runOne(target, scenario, opts, server, seq) {
  const headers = headersOf(scenario.apiKey);
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
  const connections = scenario.connections ?? opts.connections;
  const events = scenario.events ? { ...scenario.events, tag: `${scenario.events.tag}-${seq}` } : undefined;
  const seconds = Math.max(opts.seconds, scenario.minSeconds ?? 0);
  const measured = await generateLoad(
    { urls: target.urls, connections, warmup: opts.warmup, seconds, headers, paths: scenario.paths, events },
    target,
  );
  const run = { server, instances: target.urls.length, connections, ...measured, failure: null, body: checked.body };
  if (run.non2xx > 0 || run.errors > 0) {
    run.failure =
      (await sampleFailure(target.urls[0], scenario, headers)) ??
      `non-2xx ${run.non2xx}, errors ${run.errors}, codes ${JSON.stringify(run.status_codes)}`;
    log(`  ${server}: FAILED: ${run.non2xx} non-2xx, ${run.errors} errors; e.g. ${run.failure}`);
  }
  return run;
}

const round = (value, digits = 1) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/** The figures of one side over its runs: mean req/s and percentiles, the highest max, CPU per request over all of them. */
function meanOf(runs) {
  const mean = (key) =>
    runs.some((r) => r[key] === null || r[key] === undefined)
      ? null
      : round(runs.reduce((sum, r) => sum + r[key], 0) / runs.length);
  const requests = runs.reduce((sum, r) => sum + (r.requests ?? 0), 0);
  const cpu = runs.some((r) => r.cpu_seconds === null || r.cpu_seconds === undefined)
    ? null
    : runs.reduce((sum, r) => sum + r.cpu_seconds, 0);
  return {
    rps: mean('rps'),
    p50_ms: mean('p50_ms'),
    p99_ms: mean('p99_ms'),
    max_ms: runs.some((r) => r.max_ms === null) ? null : Math.max(...runs.map((r) => r.max_ms)),
    cpu_ms_per_request: cpu === null || requests === 0 ? null : round((cpu * 1000) / requests, 3),
  };
}

/**
 * The order of a scenario's runs. A hot read runs service and raw in ABBA order, so neither gains
 * from going first or second (the caches, the JIT and the machine's drift are shared); with several
 * API instances, its runs against the first instance alone (`one`) sit symmetrically inside them.
 */
function runOrder(scenario, instances) {
  if (!scenario.read) return ['service'];
  if (instances === 1) return scenario.baseline ? ['service', 'raw', 'raw', 'service'] : ['service'];
  return scenario.baseline ? ['service', 'one', 'raw', 'raw', 'one', 'service'] : ['service', 'one', 'one', 'service'];
}

/**
 * One scenario: its runs against each target, the row of its figures, and the runs kept for the
 * results file. `context` (the manifest, the run's tag) goes to the scenario's `finish`.
 */
async function runScenario(scenario, targets, opts, context) {
  const order = runOrder(scenario, opts.instances);
  log(
    `${scenario.name}: ${scenario.connections ?? opts.connections} connections, ${opts.warmup} s warm-up, ${opts.seconds} s, runs ${order.join(', ')}`,
  );
  const runs = { service: [], raw: [], one: [] };
  for (const [seq, server] of order.entries())
    runs[server].push(await runOne(targets[server], scenario, opts, server, seq));
  const body = runs.service[0].body;
  const name = scenario.rename && body ? scenario.rename(body) : scenario.name;
  const all = [...runs.service, ...runs.one, ...runs.raw];
  for (const run of all) delete run.body;
  const service = meanOf(runs.service);
  const raw = runs.raw.length > 0 ? meanOf(runs.raw) : null;
  const one = runs.one.length > 0 ? meanOf(runs.one) : null;
  const row = {
    name,
    rps: service.rps,
    p50_ms: service.p50_ms,
    p99_ms: service.p99_ms,
    max_ms: service.max_ms,
    baseline_rps: raw ? raw.rps : null,
    ratio: raw && raw.rps > 0 ? round(service.rps / raw.rps, 2) : null,
    connections: scenario.connections ?? opts.connections,
    instances: opts.instances,
    cpu_ms_per_request: service.cpu_ms_per_request,
    baseline_cpu_ms_per_request: raw ? raw.cpu_ms_per_request : null,
    // The baseline's own tail on the same machine in the same run: what the machine gives a server
    // that does nothing but the work, against which the service's p99 / p50 reads.
    baseline_p50_ms: raw ? raw.p50_ms : null,
    baseline_p99_ms: raw ? raw.p99_ms : null,
    ...(one
      ? {
          rps_one_instance: one.rps,
          p99_ms_one_instance: one.p99_ms,
          scaling: one.rps > 0 ? round(service.rps / one.rps, 2) : null,
        }
      : {}),
  };
  if (scenario.finish) Object.assign(row, await scenario.finish({ ...context, row, runs: all }));
  log(
    `  ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, max ${row.max_ms} ms${raw ? `; raw ${raw.rps} req/s, ratio ${row.ratio}` : ''}${one ? `; one instance ${one.rps} req/s` : ''}`,
  );
  return { scenario, row, runs: all.map((run) => ({ name, ...run })) };
}

module.exports = { headersOf, generateLoad, runScenario };
