// Engines (issue 35 point 6): two runs of bench/run.js on the same dataset flags, one on a single
// PostgreSQL and one on a Citus cluster (bench/data.js with BENCH_CITUS_WORKERS), side by side:
// each read's throughput and latency, the event ingestion rate and the link jobs' times, as the
// other engine's figure ÷ the base's. Same machine, same service, same dataset: the difference is
// the engine.
'use strict';

/**
 * @typedef {{ name: string, rps: number, p50_ms: number, p99_ms: number }} ScenarioFigures
 * @typedef {{ scenarios: ScenarioFigures[], events?: { events_per_s: number } | null, jobs?: { name: string, seconds: number }[] }} RunFigures
 * @typedef {{ name: string, unit: string, base: number, other: number, ratio: number | null }} EngineRow
 */

/** @param {number} other @param {number} base */
const ratioOf = (other, base) => (base > 0 ? Math.round((other / base) * 100) / 100 : null);

/**
 * One row per figure both runs have: reads (req/s, p50, p99), ingestion (events/s), jobs (seconds).
 * A read only one run has is left out (the runs may have been made with different --only).
 * @param {RunFigures} base
 * @param {RunFigures} other
 * @returns {EngineRow[]}
 */
function compareEngines(base, other) {
  /** @type {EngineRow[]} */
  const rows = [];
  const row = (
    /** @type {string} */ name,
    /** @type {string} */ unit,
    /** @type {number} */ b,
    /** @type {number} */ o,
  ) => rows.push({ name, unit, base: b, other: o, ratio: ratioOf(o, b) });
  const others = new Map(other.scenarios.map((s) => [s.name, s]));
  for (const read of base.scenarios) {
    const match = others.get(read.name);
    if (!match || !(read.rps > 0) || !(match.rps > 0)) continue;
    row(read.name, 'req/s', read.rps, match.rps);
    row(read.name, 'p50 ms', read.p50_ms, match.p50_ms);
    row(read.name, 'p99 ms', read.p99_ms, match.p99_ms);
  }
  if (base.events && other.events)
    row('event ingestion', 'events/s', base.events.events_per_s, other.events.events_per_s);
  const otherJobs = new Map((other.jobs ?? []).map((job) => [job.name, job]));
  for (const job of base.jobs ?? []) {
    const match = otherJobs.get(job.name);
    if (match) row(job.name, 's', job.seconds, match.seconds);
  }
  return rows;
}

module.exports = { compareEngines };
