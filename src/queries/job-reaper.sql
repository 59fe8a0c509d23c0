-- Generated from src/common/queue/job-reaper.ts by `npm run sql:snapshot`; do not edit.

-- reclaimLapsedRows
SELECT organization_id AS "organizationId", id FROM ${table} WHERE ${lapsed} LIMIT $2

-- reclaimLapsedRows (2)
UPDATE ${table} t SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
 FROM (SELECT id FROM ${table} WHERE organization_id = $2 AND id = ANY($3) AND ${lapsed} FOR UPDATE SKIP LOCKED) lapsed
WHERE t.organization_id = $2 AND t.id = lapsed.id
RETURNING t.organization_id AS "organizationId", t.id
