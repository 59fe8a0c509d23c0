-- Generated from src/modules/accounts/accounts.repository.ts by `npm run sql:snapshot`; do not edit.

-- AccountsRepository.findByDomain
SELECT * FROM accounts WHERE organization_id = $1 AND account_domain = $2

-- AccountsRepository.listPage
SELECT *, ${key.select()} FROM accounts WHERE ${where.toSql()} ${after} ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset}

-- AccountsRepository.count
SELECT count(*) AS total FROM accounts WHERE ${where.toSql()}

-- AccountsRepository.upsertRollups
INSERT INTO accounts (organization_id, id, account_domain, company_name, total_users, total_sessions, booked_sessions,
                      high_intent_users, qualified_users, total_time_spent_seconds, last_seen_at, summary_markdown)
SELECT $1, r.* FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, account_domain text, company_name text, total_users integer,
       total_sessions integer, booked_sessions integer, high_intent_users integer, qualified_users integer,
       total_time_spent_seconds bigint, last_seen_at timestamptz, summary_markdown text)
ON CONFLICT (organization_id, account_domain) DO UPDATE SET
  company_name = EXCLUDED.company_name, total_users = EXCLUDED.total_users, total_sessions = EXCLUDED.total_sessions,
  booked_sessions = EXCLUDED.booked_sessions, high_intent_users = EXCLUDED.high_intent_users,
  qualified_users = EXCLUDED.qualified_users, total_time_spent_seconds = EXCLUDED.total_time_spent_seconds,
  last_seen_at = EXCLUDED.last_seen_at, summary_markdown = EXCLUDED.summary_markdown, updated_at = EXCLUDED.updated_at

-- AccountsRepository.deleteByDomains
DELETE FROM accounts WHERE organization_id = $1 AND account_domain = ANY($2)
