// Preload for bench/experiments/cpu-side-by-side.js (node --require): counts the process's minor and major
// garbage collections and their pauses; on SIGUSR2 appends the running totals as a JSON line to
// $GC_COUNTS_FILE.
'use strict';
const { appendFileSync } = require('node:fs');
const { constants } = require('node:perf_hooks');

const totals = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
const KINDS = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major' };

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind];
    if (!kind) continue;
    totals[kind].count++;
    totals[kind].ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => appendFileSync(process.env.GC_COUNTS_FILE, `${JSON.stringify(totals)}\n`));
