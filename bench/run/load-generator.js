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

/**
 * @typedef {object} LoadSpec  One measurement, as the runner sends it.
 * @property {string | string[]} urls  One origin, or several that autocannon's connections take in turn.
 * @property {number} connections
 * @property {number} warmup  Seconds of load before the measured window (0: none).
 * @property {number} seconds  The measured window.
 * @property {Record<string, string>} headers
 * @property {string[]} paths  One is picked at random per request.
 * @property {import('./requests').EventsSpec} [events]  POSTs of event batches instead of GETs.
 * @property {number} [expectStatus]  The answer every request must get (else any 2xx); `non2xx` then counts the others.
 */

/**
 * @typedef {object} Measured  The figures of one measurement (latencies in ms, null without a 2xx answer).
 * @property {number} seconds
 * @property {number} rps
 * @property {number | null} p50_ms
 * @property {number | null} p90_ms
 * @property {number | null} p99_ms
 * @property {number | null} max_ms
 * @property {number} requests
 * @property {number} non2xx
 * @property {number} errors
 * @property {number} timeouts
 * @property {Record<string, number>} status_codes
 */

/**
 * @typedef {{ type: 'measuring' } | { type: 'done', result: Measured } | { type: 'failed', error: string }} GeneratorMessage
 *   What the load generator tells the runner.
 */

const send = process.send?.bind(process);
if (!send) throw new Error('bench/run/load-generator.js runs as a child of the runner (fork, with an IPC channel)');
/** @param {GeneratorMessage} message */
const tell = (message) => send(message);

/** Response times in ms, growing as needed. */
class Samples {
  values = new Float64Array(65_536);
  length = 0;

  /** @param {number} value */
  add(value) {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /**
   * Nearest-rank percentiles (0 < p ≤ 100) and the maximum, in ms to the hundredth; null without samples.
   * @param {number[]} percentiles
   * @returns {Record<string, number | null>}
   */
  summary(percentiles) {
    const sorted = this.values.slice(0, this.length).sort();
    /** @param {number} p */
    const at = (p) =>
      sorted.length === 0
        ? null
        : Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
    return { ...Object.fromEntries(percentiles.map((p) => [`p${p}_ms`, at(p)])), max_ms: at(100) };
  }
}

/**
 * One autocannon run; with `samples`, every expected answer's time goes into them (any 2xx, or
 * `expectStatus`), and `unexpected` counts the other answers.
 * @param {autocannon.Options} config
 * @param {Samples} [samples]
 * @param {number} [expectStatus]
 * @returns {Promise<autocannon.Result & { unexpected: number }>}
 */
function run(config, samples, expectStatus) {
  return new Promise((resolve, reject) => {
    let unexpected = 0;
    const instance = autocannon(config, (error, result) =>
      error ? reject(error) : resolve({ ...result, unexpected }),
    );
    const expected = (/** @type {number} */ status) =>
      expectStatus === undefined ? status >= 200 && status < 300 : status === expectStatus;
    instance.on('response', (_client, status, _bytes, ms) => {
      if (!expected(status)) unexpected++;
      else if (samples) samples.add(ms);
    });
  });
}

/**
 * @param {LoadSpec} spec
 * @returns {Promise<Measured>}
 */
async function measure({ urls, connections, warmup, seconds, headers, paths, events, expectStatus }) {
  const body = events ? eventBodies(events) : null;
  /** @type {autocannon.Request} */
  const request = body
    ? { method: 'POST', setupRequest: (req) => ({ ...req, path: pick(paths), body: body() }) }
    : { method: 'GET', setupRequest: (req) => ({ ...req, path: pick(paths) }) };
  /** @type {autocannon.Options} */
  const config = {
    url: urls,
    connections,
    timeout: 30,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: [request],
  };
  const warm =
    warmup > 0 ? await run({ ...config, duration: warmup }, undefined, expectStatus) : { unexpected: 0, errors: 0 };
  tell({ type: 'measuring' });
  const samples = new Samples();
  const r = await run({ ...config, duration: seconds }, samples, expectStatus);
  const { p50_ms, p90_ms, p99_ms, max_ms } = samples.summary([50, 90, 99]);
  return {
    seconds: r.duration,
    rps: Math.round((r.requests.total / r.duration) * 10) / 10,
    p50_ms,
    p90_ms,
    p99_ms,
    max_ms,
    requests: r.requests.total,
    non2xx: r.unexpected + warm.unexpected,
    errors: r.errors + warm.errors,
    timeouts: r.timeouts,
    status_codes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
  };
}

// The runner is gone (interrupted): so is the measurement.
process.once('disconnect', () => process.exit(1));

process.on('message', (/** @type {LoadSpec} */ spec) => {
  measure(spec).then(
    (result) => tell({ type: 'done', result }),
    (error) => tell({ type: 'failed', error: String(error?.stack ?? error) }),
  );
});
