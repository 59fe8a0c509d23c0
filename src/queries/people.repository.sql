-- Generated from src/modules/people/people.repository.ts by `npm run sql:snapshot`; do not edit.

-- PeopleRepository.findByEmailKey
SELECT * FROM people WHERE organization_id = $1 AND email_key = $2

-- PeopleRepository.accountFactsFor
SELECT id, account_domain AS "accountDomain", business, total_sessions AS "totalSessions", booked_sessions AS "bookedSessions",
     total_time_spent_seconds::float8 AS "totalTimeSpentSeconds", last_seen_at AS "lastSeenAt", overall_intent AS "overallIntent",
     qualification_status AS "qualificationStatus", summary_markdown AS "summaryMarkdown"
FROM people WHERE organization_id = $1 AND account_domain = ANY($2)

-- PeopleRepository.upsertRollups
INSERT INTO people (organization_id, id, ${ROLLUP_COLUMNS.map(([c]) => c).join(', ')})
SELECT $1, r.id, ${ROLLUP_COLUMNS.map(([c]) => `r.${c}`).join(', ')}
  FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, ${ROLLUP_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
ON CONFLICT (organization_id, email_key) DO UPDATE SET
  ${ROLLUP_COLUMNS.filter(([c]) => c !== 'email_key')
    .map(([c]) => `${c} = EXCLUDED.${c}`)
    .join(', ')},
  updated_at = EXCLUDED.updated_at
RETURNING id, email_key

-- PeopleRepository.deleteByEmailKeys
DELETE FROM people WHERE organization_id = $1 AND email_key = ANY($2)

-- PeopleRepository.emailKeysAfter
SELECT email_key FROM people WHERE organization_id = $1 AND email_key > $2 ORDER BY email_key LIMIT $3

-- PeopleRepository.organizationsWithPeople
SELECT DISTINCT organization_id FROM people

-- PeopleRepository.findById
SELECT * FROM people WHERE organization_id = $1 AND id = $2

-- PeopleRepository.listPage
WITH page AS (
  SELECT id, last_seen_at, updated_at FROM people WHERE ${where.toSql()} ${after}
   ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset})
SELECT p.*, ${key.select('p.')} FROM page JOIN people p ON p.organization_id = $1 AND p.id = page.id
 ORDER BY ${key.orderBy('page.')}

-- PeopleRepository.count
SELECT count(*) AS total FROM people WHERE ${where.toSql()}
