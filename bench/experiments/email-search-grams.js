#!/usr/bin/env node
// Which grams an email search should ask the grams index for. For every sampled substring of the
// main organization whose page the service reads through session_emails_grams_idx (EMAIL_SEARCH in
// sessions.repository.ts), the first page's statement as the compiled repository sends it (every gram
// of the substring), then the same statement asking for the three rarest grams that do not overlap,
// by the organization's exact gram frequencies (counted once into a temporary table). The LIKE
// recheck keeps both exact: the rows must be the same. Planning plus execution, median of five.
//
// Usage (after npm run build): node bench/experiments/email-search-grams.js [--manifest bench/.dataset.json] [--each]
//   --each    also prints every substring's total, gram count and both times
'use strict';
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { Client } = require('pg');
const { searchStatements } = require('./search-statements');

const GRAM = 3;
const RAREST = 3;
/** The repository asks for a substring's grams with this call on the right of `@>`. */
const ALL_GRAMS = /@> session_email_grams\(\$1, \$(\d+)\)/;

/** The same statement asking for `hashes` only: the substring's parameter becomes them. */
function withGrams({ text, values }, hashes) {
  const match = ALL_GRAMS.exec(text);
  if (!match) throw new Error('the page statement no longer asks for session_email_grams($1, $n)');
  const at = Number(match[1]);
  const rewritten = text.replace(ALL_GRAMS, `@> $${at}::bigint[]`);
  if (rewritten.split(`$${at}`).length !== 2) throw new Error(`$${at} is used elsewhere in the page statement`);
  return { text: rewritten, values: values.map((value, i) => (i === at - 1 ? hashes : value)) };
}

/** The `count` rarest grams (positions at least a gram apart), then the rarest others up to `count`. */
function rarestApart(grams, count) {
  const byRarity = grams.map((gram, at) => ({ ...gram, at })).sort((a, b) => a.frequency - b.frequency);
  const chosen = [];
  for (const gram of byRarity)
    if (chosen.length < count && chosen.every((other) => Math.abs(other.at - gram.at) >= GRAM)) chosen.push(gram);
  for (const gram of byRarity) if (chosen.length < count && !chosen.includes(gram)) chosen.push(gram);
  return chosen;
}

async function timed(db, { text, values }) {
  const times = [];
  let rows;
  for (let i = 0; i < 5; i++) {
    const { rows: plan } = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
    times.push(plan[0]['QUERY PLAN'][0]['Planning Time'] + plan[0]['QUERY PLAN'][0]['Execution Time']);
    rows ??= (await db.query(text, values)).rows.map((row) => row.id).join();
  }
  return { ms: times.sort((a, b) => a - b)[2], rows };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const { values: opts } = parseArgs({ options: { manifest: { type: 'string' }, each: { type: 'boolean' } } });
  const manifest = JSON.parse(readFileSync(opts.manifest ?? path.join(__dirname, '..', '.dataset.json'), 'utf8'));
  const db = new Client({ connectionString: manifest.databaseUrl });
  await db.connect();
  try {
    const org = manifest.organizationId;
    await db.query(
      `CREATE TEMP TABLE gram_frequencies AS
         SELECT substr(email_key, i, ${GRAM}) AS gram, count(*)::int AS frequency
           FROM session_emails, generate_series(1, length(email_key) - ${GRAM - 1}) AS i
          WHERE organization_id = $1 GROUP BY 1`,
      [org],
    );
    const frequencies = new Map(
      (await db.query(`SELECT gram, frequency FROM gram_frequencies`)).rows.map((r) => [r.gram, r.frequency]),
    );
    const results = [];
    for (const substring of manifest.sample.emailSubstrings) {
      const { total, byGrams, page } = await searchStatements(db, org, substring);
      if (!byGrams) continue;
      const [statement] = page;
      const lower = substring.toLowerCase();
      const {
        rows: [{ hashes }],
      } = await db.query(`SELECT session_email_grams($1, $2)::text[] AS hashes`, [org, lower]);
      const grams = hashes.map((hash, at) => ({ hash, frequency: frequencies.get(lower.substr(at, GRAM)) ?? 0 }));
      const all = await timed(db, statement);
      const rarest = await timed(
        db,
        withGrams(
          statement,
          rarestApart(grams, RAREST).map((gram) => gram.hash),
        ),
      );
      if (all.rows !== rarest.rows) throw new Error(`"${substring}": the rarest grams' page differs`);
      results.push({ substring, total, grams: grams.length, all: all.ms, rarest: rarest.ms });
    }
    console.log(
      `${manifest.database}: ${results.length} of ${manifest.sample.emailSubstrings.length} substrings take the grams index; ` +
        `first page, planning + execution: every gram mean ${mean(results.map((r) => r.all)).toFixed(2)} ms ` +
        `(median ${median(results.map((r) => r.all)).toFixed(2)}), the ${RAREST} rarest apart mean ` +
        `${mean(results.map((r) => r.rarest)).toFixed(2)} ms (median ${median(results.map((r) => r.rarest)).toFixed(2)}); same rows`,
    );
    if (opts.each)
      for (const r of results.sort((a, b) => a.total - b.total))
        console.log(
          `  "${r.substring}" ${r.total} matches, ${r.grams} grams: ${r.all.toFixed(2)} → ${r.rarest.toFixed(2)} ms`,
        );
  } finally {
    await db.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
