// The load generator: a child process of the runner (bench/run/measure.js forks it once), so that
// nothing else the runner does (job polling, memory sampling, its own garbage collections) runs in
// the process that times the requests. For each measurement it is sent, one at a time, it runs
// autocannon (warm-up, then the measured window) and reports `measuring` when the measured window
// starts and `done` with the figures.
'use strict';
const autocannon = require('autocannon');
const { eventBodies, pick } = require('./requests');

const run = (config) => new Promise((resolve, reject) => autocannon(config, (error, result) => (error ? reject(error) : resolve(result))));

async function measure({ urls, connections, warmup, seconds, headers, paths, events }) {
  const body = events ? eventBodies(events) : null;
  const request = body
    ? { method: 'POST', setupRequest: (req) => ({ ...req, path: pick(paths), body: body() }) }
    : { method: 'GET', setupRequest: (req) => ({ ...req, path: pick(paths) }) };
  const config = { url: urls, connections, timeout: 30, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, requests: [request] };
  const warm = warmup > 0 ? await run({ ...config, duration: warmup }) : { non2xx: 0, errors: 0 };
  process.send({ type: 'measuring' });
  const r = await run({ ...config, duration: seconds });
  return {
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

// The runner is gone (interrupted): so is the measurement.
process.once('disconnect', () => process.exit(1));

process.on('message', (spec) => {
  measure(spec).then(
    (result) => process.send({ type: 'done', result }),
    (error) => process.send({ type: 'failed', error: String(error?.stack ?? error) }),
  );
});
