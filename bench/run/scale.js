// Scale (issue 35 point 5): the hot reads at 1, 2 and 3 M sessions (datasets of bench/data.js
// --scale 1, 2, 3, each run by bench/run.js), each read's p50 at the largest scale against the
// smallest, and its p50 at 10 M projected from the curve.
//
// The projection fits the p50s two ways, by least squares over the measured scales: linear in the
// scale (p50 = a + b·N: a read whose work grows with the organization, a scan or a count) and linear
// in its logarithm (p50 = a + b·ln N: a read that descends an index, whose depth grows with log N),
// and keeps the fit with the smaller squared error (a tie goes to the linear fit, the more cautious
// past the last point). With three points and two parameters the error says which shape the
// measurements follow; it does not make 10 M a measurement.
'use strict';

/** A read's p50 at 3 M may be this many times its 1 M figure. */
const GROWTH_LIMIT = 1.2;

/**
 * @typedef {{ x: number, y: number }} Point
 * @typedef {{ kind: 'linear' | 'log', a: number, b: number, sse: number }} Fit  y = a + b·x, or a + b·ln x.
 */

/**
 * Least squares of y = a + b·f(x).
 * @param {Point[]} points
 * @param {'linear' | 'log'} kind
 * @returns {Fit}
 */
function fitOf(points, kind) {
  const f = kind === 'log' ? Math.log : (/** @type {number} */ x) => x;
  const xs = points.map((p) => f(p.x));
  const n = points.length;
  const meanX = xs.reduce((s, x) => s + x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = xs.reduce((s, x) => s + (x - meanX) ** 2, 0);
  const sxy = xs.reduce((s, x, i) => s + (x - meanX) * (points[i].y - meanY), 0);
  const b = sxx === 0 ? 0 : sxy / sxx;
  const a = meanY - b * meanX;
  const sse = xs.reduce((s, x, i) => s + (a + b * x - points[i].y) ** 2, 0);
  return { kind, a, b, sse };
}

/**
 * The better of the two fits (module header) and its value at `x`.
 * @param {Point[]} points  At least two scales.
 * @param {number} x
 */
function project(points, x) {
  if (new Set(points.map((p) => p.x)).size < 2) throw new Error('a projection needs at least two scales');
  const linear = fitOf(points, 'linear');
  const log = fitOf(points, 'log');
  const chosen = log.sse < linear.sse ? log : linear;
  const value = chosen.a + chosen.b * (chosen.kind === 'log' ? Math.log(x) : x);
  return { fit: chosen, value: Math.round(value * 10) / 10 };
}

/**
 * @typedef {object} ScaleRow
 * @property {string} name
 * @property {Record<string, number | null>} p50_ms  By scale: the median of its rounds.
 * @property {number | null} growth  p50 at the largest scale ÷ at the smallest.
 * @property {boolean} met  growth ≤ GROWTH_LIMIT.
 * @property {number | null} projected_p50_ms  At `target`.
 * @property {'linear' | 'log' | null} fit
 */

/**
 * The median of `values` (the mean of the middle two of an even count); null when there are none.
 * @param {number[]} values
 */
function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return Math.round(value * 10) / 10;
}

/**
 * The runs by scale, smallest first: several runs of one scale are its rounds.
 * @template {{ scale: number }} R
 * @param {R[]} runs
 * @returns {Map<number, R[]>}
 */
function roundsByScale(runs) {
  const scales = [...new Set(runs.map((run) => run.scale))].sort((a, b) => a - b);
  return new Map(scales.map((scale) => [scale, runs.filter((run) => run.scale === scale)]));
}

/**
 * Every read measured at each scale (rows with a raw baseline: the hot reads and the redirect), by
 * key (its name before the dataset's counts were put in it): its p50s, growth from the smallest to
 * the largest scale, and its p50 projected at `target`. Several runs of one scale are rounds of it:
 * a read's p50 there is the median of its rounds' (one run's p50 on a shared machine swings by
 * ±20-35 % between runs; run the rounds interleaved, so that a slow spell does not fall on one size).
 * A read missing at a scale has no growth and misses.
 * @param {{ scale: number, scenarios: { name: string, key?: string, p50_ms: number | null, baseline_rps: number | null }[] }[]} runs
 * @param {number} [target]  The scale to project to (10: 10 M sessions).
 * @returns {ScaleRow[]}
 */
function scaleReport(runs, target = 10) {
  const rounds = roundsByScale(runs);
  const scales = [...rounds.keys()];
  const smallest = scales[0];
  const largest = scales[scales.length - 1];
  /** @param {{ name: string, key?: string }} row */
  const keyOf = (row) => row.key ?? row.name;
  const names = [...new Set(runs.flatMap((run) => run.scenarios.filter((s) => s.baseline_rps !== null).map(keyOf)))];
  return names.map((name) => {
    /** @type {Record<string, number | null>} */
    const p50 = {};
    for (const [scale, runsOfScale] of rounds) {
      const measured = runsOfScale
        .map((run) => run.scenarios.find((s) => keyOf(s) === name)?.p50_ms ?? null)
        .filter(/** @returns {value is number} */ (value) => value !== null);
      p50[scale] = median(measured);
    }
    const first = p50[smallest];
    const last = p50[largest];
    const growth = first !== null && last !== null && first > 0 ? Math.round((last / first) * 100) / 100 : null;
    const points = scales.flatMap((scale) => {
      const y = p50[scale];
      return y === null ? [] : [{ x: scale, y }];
    });
    const projected = points.length >= 2 ? project(points, target) : null;
    return {
      name,
      p50_ms: p50,
      growth,
      met: growth !== null && growth <= GROWTH_LIMIT,
      projected_p50_ms: projected ? projected.value : null,
      fit: projected ? projected.fit.kind : null,
    };
  });
}

module.exports = { GROWTH_LIMIT, fitOf, median, project, roundsByScale, scaleReport };
