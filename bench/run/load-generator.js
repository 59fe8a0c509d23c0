// The load generator: a child process of the runner (bench/run/measure.js forks it once), so that
// nothing else the runner does (job polling, memory sampling, its own garbage collections) runs in
// the process that times the requests. For each measurement it is sent, one at a time, it runs
// autocannon (warm-up, then the measured window) and reports `measuring` when the measured window
// starts and `done` with the figures.
// Latency percentiles come from every 2xx response time as autocannon measures it (a float of ms),
// not from autocannon's histogram, which keeps whole milliseconds: at a p50 of 4 ms that floor alone
// could move p99 / p50 by a quarter.
'use strict';
const autocannon = require('autocannon');
const { eventBodies, pick } = require('./requests');

/** Response times in ms, growing as needed. */
class Samples {
  values = new Float64Array(65_536);
  length = 0;

  add(value) {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** Nearest-rank percentiles (0 < p ≤ 100) and the maximum, in ms to the hundredth; null without samples. */
  summary(percentiles) {
    const sorted = this.values.slice(0, this.length).sort();
    const at = (p) =>
      sorted.length === 0
        ? null
        : Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
    return { ...Object.fromEntries(percentiles.map((p) => [`p${p}_ms`, at(p)])), max_ms: at(100) };
  }
}

/** One autocannon run; with `samples`, every 2xx response time goes into them. */
function run(config, samples) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(config, (error, result) => (error ? reject(error) : resolve(result)));
    if (samples)
      instance.on('response', (_client, status, _bytes, ms) => status >= 200 && status < 300 && samples.add(ms));
  });
}

async function measure({ urls, connections, warmup, seconds, headers, paths, events }) {
  const body = events ? eventBodies(events) : null;
  const request = body
    ? { method: 'POST', setupRequest: (req) => ({ ...req, path: pick(paths), body: body() }) }
    : { method: 'GET', setupRequest: (req) => ({ ...req, path: pick(paths) }) };
  const config = {
    url: urls,
    connections,
    timeout: 30,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: [request],
  };
  const warm = warmup > 0 ? await run({ ...config, duration: warmup }) : { non2xx: 0, errors: 0 };
  process.send({ type: 'measuring' });
  const samples = new Samples();
  const r = await run({ ...config, duration: seconds }, samples);
  return {
    seconds: r.duration,
    rps: Math.round((r.requests.total / r.duration) * 10) / 10,
    ...samples.summary([50, 90, 99]),
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
