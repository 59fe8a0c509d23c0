// Verification against the service's compiled rules: sampled links, sampled people (with their sessions
// and accounts), whole-table invariants, and the derived tables against a recount; any mismatch is a VerificationError (exit 1, no manifest).
'use strict';
const { log } = require('./log');
const { VISIBLE } = require('./sql');
const { verifyLinks } = require('./verify-links');
const { verifyPeople } = require('./verify-people');
const { verifyDerivedTables } = require('./derived-tables');

/**
 * Whole-table invariants that are cheap to check in SQL.
 * @param {import('pg').Client} db
 * @param {string[]} failures
 */
async function globalChecks(db, failures) {
  const checks = {
    'visible sessions with an email but no person': `SELECT count(*) FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL AND person_id IS NULL`,
    'other sessions with a person': `SELECT count(*) FROM sessions WHERE person_id IS NOT NULL AND NOT (${VISIBLE} AND email_key IS NOT NULL)`,
    'sessions pointing at a person of another email': `SELECT count(*) FROM sessions s JOIN people p ON p.organization_id = s.organization_id AND p.id = s.person_id WHERE p.email_key <> s.email_key`,
    'people without visible sessions': `SELECT count(*) FROM (SELECT organization_id, email_key FROM people
       EXCEPT SELECT organization_id, email_key FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL) x`,
    'accounts whose user count differs from their people': `SELECT count(*) FROM accounts a FULL JOIN (SELECT organization_id, account_domain, count(*) AS n FROM people
       WHERE account_domain IS NOT NULL GROUP BY 1, 2) p USING (organization_id, account_domain) WHERE a.total_users IS DISTINCT FROM p.n`,
    'links whose load count differs from their non-bot page views': `SELECT count(*) FROM custom_links l FULL JOIN (SELECT organization_id, custom_link_id AS id, count(*) AS n
       FROM link_events WHERE type = 'page_view' AND NOT bot GROUP BY 1, 2) e USING (organization_id, id) WHERE l.load_count IS DISTINCT FROM coalesce(e.n, 0)`,
  };
  for (const [name, sql] of Object.entries(checks)) {
    const {
      rows: [{ count }],
    } = await db.query(sql);
    if (Number(count) !== 0) failures.push(`${name}: ${count}`);
  }
  const visibleKeys = (
    await db.query(
      `SELECT count(DISTINCT (organization_id, email_key)) AS n FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL`,
    )
  ).rows[0].n;
  const people = (await db.query(`SELECT count(*) AS n FROM people`)).rows[0].n;
  if (visibleKeys !== people) failures.push(`people: ${people} rows, ${visibleKeys} distinct visible email keys`);
  log(
    `  checked ${Object.keys(checks).length + 1} whole-table invariants (sessions ↔ people ↔ accounts, link load counts)`,
  );
}

/**
 * @param {import('pg').Client} db
 * @param {import('./organizations').OrganizationSpec[]} specs
 */
async function verify(db, specs) {
  /** @type {string[]} */
  const failures = [];
  await verifyLinks(db, specs, failures);
  await verifyPeople(db, specs, failures);
  await globalChecks(db, failures);
  await verifyDerivedTables(db, failures);
  log('  checked the derived tables (session counts, email search, campaign figures, link search) against a recount');
  if (failures.length > 0) {
    for (const failure of failures.slice(0, 40)) log(`  MISMATCH ${failure}`);
    throw new VerificationError(`${failures.length} mismatches between the dataset and the service's rules`);
  }
  log('  verification passed: no mismatch');
}

class VerificationError extends Error {}

module.exports = { verify, VerificationError };
