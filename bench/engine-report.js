#!/usr/bin/env node
// Issue 35 point 6: the results of bench/run.js on a single PostgreSQL and on a Citus cluster, same
// dataset flags, same machine, side by side (bench/run/engines.js). Prints a Markdown table for
// docs/scaling.md ("Citus against one PostgreSQL"); exit 2 for bad arguments.
// Usage: node bench/engine-report.js --base postgresql=bench/results/pg.json --other citus=bench/results/citus.json
'use strict';
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { compareEngines } = require('./run/engines');

/** @param {string | undefined} spec */
function labelled(spec) {
  if (!spec) return null;
  const at = spec.indexOf('=');
  if (at < 1) return null;
  return { label: spec.slice(0, at), results: JSON.parse(readFileSync(spec.slice(at + 1), 'utf8')) };
}

function main() {
  const { values } = parseArgs({ options: { base: { type: 'string' }, other: { type: 'string' } }, strict: true });
  const base = labelled(values.base);
  const other = labelled(values.other);
  if (!base || !other) {
    console.error('usage: node bench/engine-report.js --base <label>=<results.json> --other <label>=<results.json>');
    return 2;
  }
  console.log(`| figure | ${base.label} | ${other.label} | ${other.label} ÷ ${base.label} |`);
  console.log('|---|---|---|---|');
  for (const row of compareEngines(base.results, other.results))
    console.log(`| ${row.name}: ${row.unit} | ${row.base} | ${row.other} | ${row.ratio ?? '–'} |`);
  return 0;
}

process.exit(main());
