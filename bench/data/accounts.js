// Derivation: accounts (account-rollup.ts) from their people.
'use strict';
const { uuid7, nonEmpty } = require('./sql');

/** @typedef {import('pg').Client} Client */

/**
 * Accounts from their people (account-rollup.ts): company name = most frequent non-empty business,
 * ties to the business of the most recently seen person (lastSeenAt desc, id desc); summary of the
 * most recent person who has one.
 * @param {Client} db
 */
async function insertAccounts(db) {
  // Accounts in order of creation (their first person).
  await db.query(
    `INSERT INTO accounts (organization_id, id, account_domain, company_name, total_users, total_sessions, booked_sessions, high_intent_users,
       qualified_users, total_time_spent_seconds, last_seen_at, summary_markdown, created_at, updated_at)
     WITH ranked AS (
       SELECT p.*, row_number() OVER (PARTITION BY organization_id, account_domain ORDER BY last_seen_at DESC, id DESC) AS recency
         FROM people p WHERE account_domain IS NOT NULL),
     names AS (
       SELECT DISTINCT ON (organization_id, account_domain) organization_id, account_domain, business
         FROM ranked WHERE ${nonEmpty('business')}
        GROUP BY organization_id, account_domain, business
        ORDER BY organization_id, account_domain, count(*) DESC, min(recency))
     SELECT r.organization_id, ${uuid7('min(r.created_at)')}, r.account_domain, n.business, count(*), sum(r.total_sessions), sum(r.booked_sessions),
            count(*) FILTER (WHERE r.overall_intent = 'high'), count(*) FILTER (WHERE r.qualification_status = 'qualified'),
            sum(r.total_time_spent_seconds), max(r.last_seen_at),
            (array_agg(r.summary_markdown ORDER BY r.recency) FILTER (WHERE ${nonEmpty('r.summary_markdown')}))[1],
            min(r.created_at), max(r.updated_at)
       FROM ranked r LEFT JOIN names n ON n.organization_id = r.organization_id AND n.account_domain = r.account_domain
      GROUP BY r.organization_id, r.account_domain, n.business
      ORDER BY min(r.created_at)`,
  );
}

module.exports = { insertAccounts };
