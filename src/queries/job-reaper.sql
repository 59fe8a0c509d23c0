-- Generated from src/common/queue/job-reaper.ts by `npm run sql:snapshot`; do not edit.

-- reclaimLapsedRows
UPDATE ${table} t SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
 FROM (SELECT organization_id, id FROM ${table}
        WHERE status IN (${states}) AND coalesce(lease_until, created_at + $1 * interval '1 millisecond') < now()
        LIMIT $2 FOR UPDATE SKIP LOCKED) lapsed
WHERE t.organization_id = lapsed.organization_id AND t.id = lapsed.id
RETURNING t.organization_id AS "organizationId", t.id
