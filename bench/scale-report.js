#!/usr/bin/env node
// The scale step of issue 35 point 5: given the results of bench/run.js on the datasets of
// `bench/data.js --scale 1`, `--scale 2` and `--scale 3` (1, 2 and 3 M sessions), checks every
// read's p50 at the largest scale within 1.2 × its figure at the smallest, and projects each read's
// p50 at 10 M from the curve (bench/run/scale.js: the better of a linear and a logarithmic fit).
// A scale given more than once is measured in rounds: each read's p50 there is their median.
// Prints a Markdown table (for docs/scaling.md); exit 1 when a read misses, 2 for bad arguments.
// Usage: node bench/scale-report.js --at 1=bench/results/x1.json --at 2=bench/results/x2.json \
//          --at 3=bench/results/x3.json [--project 10]
//        node bench/scale-report.js --at 1=<round a> --at 3=<round a> --at 1=<round b> --at 3=<round b> …
'use strict';
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { GROWTH_LIMIT, roundsByScale, scaleReport } = require('./run/scale');

/** @param {unknown} value */
const fmt = (value) => (value === null || value === undefined ? '–' : String(value));

function main() {
  const { values } = parseArgs({
    options: { at: { type: 'string', multiple: true }, project: { type: 'string' } },
    strict: true,
  });
  const target = Number(values.project ?? 10);
  const runs = (values.at ?? []).map((spec) => {
    const [scale, file] = spec.split('=');
    /** @type {import('./run/report').Results} */
    const results = JSON.parse(readFileSync(file, 'utf8'));
    return { scale: Number(scale), scenarios: results.scenarios };
  });
  if (runs.length < 2 || runs.some((r) => !Number.isFinite(r.scale)) || !Number.isFinite(target)) {
    console.error('usage: node bench/scale-report.js --at 1=<results.json> --at 2=<…> --at 3=<…> [--project 10]');
    return 2;
  }
  const rounds = roundsByScale(runs);
  const scales = [...rounds.keys()];
  const heading = (/** @type {number} */ scale) => {
    const count = rounds.get(scale)?.length ?? 0;
    return count === 1 ? `p50 at ${scale} M ms` : `p50 at ${scale} M ms (median of ${count})`;
  };
  const rows = scaleReport(runs, target);
  console.log(
    `| read | ${scales.map(heading).join(' | ')} | ${scales.at(-1)} M ÷ ${scales[0]} M (≤ ${GROWTH_LIMIT}) | p50 at ${target} M ms (fit) |`,
  );
  console.log(`|---|${scales.map(() => '---|').join('')}---|---|`);
  for (const row of rows)
    console.log(
      `| ${row.name} | ${scales.map((s) => fmt(row.p50_ms[s])).join(' | ')} | ${fmt(row.growth)} ${row.met ? '' : '**missed**'} | ${fmt(row.projected_p50_ms)} (${fmt(row.fit)}) |`,
    );
  return rows.every((row) => row.met) ? 0 : 1;
}

process.exit(main());
