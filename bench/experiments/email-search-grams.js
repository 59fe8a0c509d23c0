#!/usr/bin/env node
// What asking the grams index for fewer grams buys an email search. For every sampled substring of the
// main organization whose page the service reads through session_emails_grams_idx (EMAIL_SEARCH in
// sessions.repository.ts), the first page's statement as the compiled repository sends it (the rarest
// grams by the organization's sampled shares, searchedGrams, once the sweep sampled it), then the same
// statement asking for every gram of the substring (as without a sample). The LIKE recheck keeps both
// exact: the rows must be the same. Planning plus execution, median of five.
//
// Usage (after npm run build): node bench/experiments/email-search-grams.js [--manifest bench/.dataset.json] [--each]
//   --each    also prints every substring's total, gram counts and both times
'use strict';
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { Client } = require('pg');
const { searchStatements } = require('./search-statements');

/** The repository asks for the chosen grams' hashes as this parameter. */
const ASKED_GRAMS = /@> \$(\d+)::bigint\[\]/;

/** The statement's asked grams and the same statement asking for `hashes` instead. */
function withGrams({ text, values }, hashes) {
  const match = ASKED_GRAMS.exec(text);
  if (!match) throw new Error('the page statement no longer asks for its grams as $n::bigint[]');
  const at = Number(match[1]) - 1;
  return { asked: values[at], statement: { text, values: values.map((value, i) => (i === at ? hashes : value)) } };
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
    const results = [];
    for (const substring of manifest.sample.emailSubstrings) {
      const { total, byGrams, page } = await searchStatements(db, org, substring);
      if (!byGrams) continue;
      const [statement] = page;
      const {
        rows: [{ hashes }],
      } = await db.query(`SELECT session_email_grams($1, $2)::text[] AS hashes`, [org, substring.toLowerCase()]);
      const { asked, statement: everyGram } = withGrams(statement, hashes);
      const chosen = await timed(db, statement);
      const every = await timed(db, everyGram);
      if (chosen.rows !== every.rows) throw new Error(`"${substring}": the page asking every gram differs`);
      results.push({
        substring,
        total,
        grams: hashes.length,
        asked: asked.length,
        every: every.ms,
        service: chosen.ms,
      });
    }
    console.log(
      `${manifest.database}: ${results.length} of ${manifest.sample.emailSubstrings.length} substrings take the grams index; ` +
        `first page, planning + execution: every gram mean ${mean(results.map((r) => r.every)).toFixed(2)} ms ` +
        `(median ${median(results.map((r) => r.every)).toFixed(2)}), as the service asks mean ` +
        `${mean(results.map((r) => r.service)).toFixed(2)} ms (median ${median(results.map((r) => r.service)).toFixed(2)}); same rows`,
    );
    if (opts.each)
      for (const r of results.sort((a, b) => a.total - b.total))
        console.log(
          `  "${r.substring}" ${r.total} matches, ${r.asked} of ${r.grams} grams asked: ${r.every.toFixed(2)} → ${r.service.toFixed(2)} ms`,
        );
  } finally {
    await db.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
