#!/usr/bin/env node
// EXPLAIN (ANALYZE, BUFFERS) of the email substring search (GET /sessions?email=…) on a built
// dataset: for the manifest's tenant and main organization, every sampled substring's count and first
// page, as the service's own repository sends them (compiled; every statement it sends, recorded and
// explained), summed over the statements' plans.
// Buffers do not depend on the machine's load; times do (each query runs twice, the second is kept).
//
// Usage (after npm run build): node bench/experiments/email-search-explain.js [--manifest bench/.dataset.json] [--plans] [--each]
//   --plans   also prints each statement's plan for the first substring of each organization
//   --each    also prints every substring's buffers, time and indexes
'use strict';
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { Client } = require('pg');
const { searchStatements } = require('./search-statements');

/** Shared buffers (hit + read) and time over the statements' plans, and the index scans they used. */
function summarize(plans) {
  const indexes = new Set();
  const walk = (node) => {
    if (node['Index Name']) indexes.add(`${node['Node Type']} ${node['Index Name']}`);
    else if (node['Node Type'] === 'Seq Scan') indexes.add(`Seq Scan ${node['Relation Name']}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const plan of plans) walk(plan.Plan);
  const sum = (f) => plans.reduce((total, plan) => total + f(plan), 0);
  return {
    ms: sum((p) => p['Execution Time']),
    buffers: sum((p) => p.Plan['Shared Hit Blocks'] + p.Plan['Shared Read Blocks']),
    indexes: [...indexes],
  };
}

async function explain(db, { text, values }) {
  await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
  return rows[0]['QUERY PLAN'][0];
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main() {
  const { values: opts } = parseArgs({
    options: { manifest: { type: 'string' }, plans: { type: 'boolean' }, each: { type: 'boolean' } },
  });
  const manifest = JSON.parse(readFileSync(opts.manifest ?? path.join(__dirname, '..', '.dataset.json'), 'utf8'));
  const db = new Client({ connectionString: manifest.databaseUrl });
  await db.connect();
  try {
    await db.query(`SET jit = off`);
    const { rows: indexes } = await db.query(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'session_emails' ORDER BY 1`,
    );
    console.log(`session_emails indexes: ${indexes.map((r) => r.indexname).join(', ')}`);
    const organizations = [
      ...(manifest.tenant
        ? [{ label: 'tenant', id: manifest.tenant.organizationId, substrings: manifest.tenant.sample.emailSubstrings }]
        : []),
      { label: 'main', id: manifest.organizationId, substrings: manifest.sample.emailSubstrings },
    ];
    for (const org of organizations) {
      const {
        rows: [{ n }],
      } = await db.query(`SELECT count(*)::int AS n FROM session_emails WHERE organization_id = $1`, [org.id]);
      const results = { page: [], count: [] };
      for (const [i, substring] of org.substrings.entries()) {
        const statements = await searchStatements(db, org.id, substring);
        for (const kind of ['page', 'count']) {
          const plans = [];
          for (const statement of statements[kind]) {
            plans.push(await explain(db, statement));
            if (opts.plans && i === 0) {
              const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
              console.log(`\n${org.label} ${kind} of "${substring}":\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
            }
          }
          results[kind].push({ substring, total: statements.total, ...summarize(plans) });
        }
      }
      console.log(`\n${org.label}: ${n} rows of session_emails, ${org.substrings.length} substrings`);
      for (const [kind, list] of Object.entries(results)) {
        const ms = list.map((r) => r.ms).sort((x, y) => x - y);
        const buffers = list.map((r) => r.buffers).sort((x, y) => x - y);
        const used = new Map();
        for (const r of list) for (const index of r.indexes) used.set(index, (used.get(index) ?? 0) + 1);
        console.log(
          `  ${kind.padEnd(5)} buffers p50 ${quantile(buffers, 0.5)}, p90 ${quantile(buffers, 0.9)}, max ${buffers[buffers.length - 1]}, sum ${buffers.reduce((a, b) => a + b, 0)}; ` +
            `ms p50 ${quantile(ms, 0.5).toFixed(2)}, p90 ${quantile(ms, 0.9).toFixed(2)}, max ${ms[ms.length - 1].toFixed(2)}; ` +
            `${[...used].map(([index, count]) => `${index} ×${count}`).join(', ')}`,
        );
        if (opts.each)
          for (const r of list)
            console.log(
              `        "${r.substring}" (${r.total}) ${r.buffers} buffers, ${r.ms.toFixed(2)} ms, ${r.indexes.join(' + ')}`,
            );
        const worst = [...list].sort((x, y) => y.buffers - x.buffers).slice(0, 3);
        console.log(
          `        most buffers: ${worst.map((r) => `"${r.substring}" ${r.buffers} (${r.ms.toFixed(1)} ms)`).join(', ')}`,
        );
      }
    }
  } finally {
    await db.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
