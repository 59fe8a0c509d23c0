// Verification of a sample of people, their sessions and their accounts against the service's compiled
// rollup rules and repositories.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { log } = require('./log');
const { visibleOf } = require('./sql');
const { compareColumns } = require('./verify-columns');

/**
 * people columns written by a rollup (people.repository.ts ROLLUP_COLUMNS) from a PersonRollup.
 * @param {import('../../src/modules/people/rules/person-rollup').PersonRollup} r
 */
const personColumns = (r) => ({
  email_key: r.emailKey,
  name: r.name,
  phone: r.phone,
  business: r.business,
  total_sessions: r.totalSessions,
  booked_sessions: r.bookedSessions,
  first_seen_at: r.firstSeenAt,
  last_seen_at: r.lastSeenAt,
  total_time_spent_seconds: r.totalTimeSpentSeconds,
  first_source: r.firstSource,
  last_source: r.lastSource,
  last_location: r.lastLocation,
  qualification_status: r.qualification?.status ?? null,
  qualification_rationale: r.qualification?.rationale ?? null,
  qualification_source: r.qualification?.source ?? null,
  qualification_assessed_at: r.qualification?.assessedAt ?? null,
  qualification_rubric_version_id: r.qualification?.rubricVersionId ?? null,
  buying_intent: r.buyingIntent,
  account_domain: r.accountDomain,
  summary_markdown: r.summaryMarkdown,
  intent_score: r.intentScore,
  overall_intent: r.overallIntent,
  intent_calculated_at: r.intentCalculatedAt,
});

/**
 * @param {import('pg').Client} db
 * @param {import('./organizations').OrganizationSpec[]} specs
 * @param {string[]} failures
 */
async function verifyPeople(db, specs, failures) {
  require('reflect-metadata');
  const { SessionsRepository } = require(path.join(DIST, 'modules/sessions/sessions.repository'));
  const { PeopleRepository } = require(path.join(DIST, 'modules/people/people.repository'));
  /** @type {typeof import('../../src/modules/people/rules/person-rollup')} */
  const { rollUpPerson } = require(path.join(DIST, 'modules/people/rules/person-rollup'));
  /** @type {typeof import('../../src/modules/accounts/rules/account-rollup')} */
  const { rollUpAccount } = require(path.join(DIST, 'modules/accounts/rules/account-rollup'));
  // The repositories are built without their data source: only their methods that take a transaction
  // (this stand-in over the build's connection) are called, so their constructors' types do not apply.
  const tx = {
    query: async (/** @type {string} */ sql, /** @type {unknown[]} */ params) => (await db.query(sql, params)).rows,
  };
  const sessionsRepository = new SessionsRepository(undefined, undefined);
  const peopleRepository = new PeopleRepository(undefined);
  const main = specs[0].id;
  // The people with the most sessions, random ones, and some of the other organizations.
  const { rows: sample } = await db.query(
    `(SELECT * FROM people WHERE organization_id = $1 ORDER BY total_sessions DESC LIMIT 10)
     UNION (SELECT * FROM people WHERE organization_id = $1 ORDER BY random() LIMIT 210)
     UNION (SELECT * FROM people WHERE organization_id = ANY($2) ORDER BY random() LIMIT 30)`,
    [main, specs.slice(1).map((s) => s.id)],
  );
  let sessionsChecked = 0;
  let accountsChecked = 0;
  for (const org of new Set(sample.map((p) => p.organization_id))) {
    const people = sample.filter((p) => p.organization_id === org);
    const keys = people.map((p) => p.email_key);
    const facts = await sessionsRepository.factsOfPeople(tx, org, keys);
    /** @type {Map<string, { person: Record<string, any>, rollup: import('../../src/modules/people/rules/person-rollup').PersonRollup }>} */
    const rollups = new Map();
    for (const person of people) {
      const sessions = facts.get(person.email_key);
      if (!sessions) {
        failures.push(`person ${person.id}: no visible sessions`);
        continue;
      }
      const rollup = rollUpPerson(person.email_key, sessions, person.intent_calculated_at);
      rollups.set(person.email_key, { person, rollup });
      compareColumns(failures, `person ${person.id}`, personColumns(rollup), person);
    }
    // Their sessions point at them with their effective qualification (visible ones) or at nobody with their own (others).
    const { rows: sessions } = await db.query(
      `SELECT id, email_key, person_id, effective_qualification_status, qualification_status, ${visibleOf('s')} AS visible
         FROM sessions s WHERE organization_id = $1 AND email_key = ANY($2)`,
      [org, keys],
    );
    for (const s of sessions) {
      const owner = rollups.get(s.email_key);
      if (!owner) continue;
      const want = s.visible
        ? { person_id: owner.person.id, effective_qualification_status: owner.rollup.qualification?.status ?? null }
        : { person_id: null, effective_qualification_status: s.qualification_status };
      compareColumns(failures, `session ${s.id}`, want, s);
      sessionsChecked += 1;
    }
    // Their accounts, from all the people of each domain.
    const domains = [
      ...new Set([...rollups.values()].flatMap((r) => (r.rollup.accountDomain ? [r.rollup.accountDomain] : []))),
    ];
    const peopleByDomain = await peopleRepository.accountFactsFor(tx, org, domains);
    const { rows: accounts } = await db.query(
      `SELECT * FROM accounts WHERE organization_id = $1 AND account_domain = ANY($2)`,
      [org, domains],
    );
    const byDomain = new Map(accounts.map((a) => [a.account_domain, a]));
    for (const domain of domains) {
      const row = byDomain.get(domain);
      if (!row) {
        failures.push(`account ${domain}: missing`);
        continue;
      }
      const a = rollUpAccount(domain, peopleByDomain.get(domain));
      compareColumns(
        failures,
        `account ${domain}`,
        {
          company_name: a.companyName,
          total_users: a.totalUsers,
          total_sessions: a.totalSessions,
          booked_sessions: a.bookedSessions,
          high_intent_users: a.highIntentUsers,
          qualified_users: a.qualifiedUsers,
          total_time_spent_seconds: a.totalTimeSpentSeconds,
          last_seen_at: a.lastSeenAt,
          summary_markdown: a.summaryMarkdown,
        },
        row,
      );
      accountsChecked += 1;
    }
  }
  log(
    `  verified ${sample.length} people (10 with the most sessions, the rest random, ${sample.filter((p) => p.organization_id !== main).length} of the other organizations), ` +
      `${sessionsChecked} of their sessions' person and effective qualification, ${accountsChecked} of their accounts`,
  );
}

module.exports = { verifyPeople };
