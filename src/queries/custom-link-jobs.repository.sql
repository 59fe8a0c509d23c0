-- Generated from src/modules/custom-link-jobs/custom-link-jobs.repository.ts by `npm run sql:snapshot`; do not edit.

-- CustomLinkJobsRepository.insert
INSERT INTO custom_link_jobs (organization_id, id, type, status, total_items, campaign_id, campaign_name, parent_job_id, render_units, created_at, started_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)

-- CustomLinkJobsRepository.insert (2)
INSERT INTO custom_link_job_items (organization_id, job_id, index, status, custom_link_id, external_id, input, retry_of_job_id, retry_of_index)
SELECT $1, $2, r.index, r.status, r.link_id, r.external_id, r.input, CASE WHEN r.retry_of_index IS NOT NULL THEN $4::uuid END, r.retry_of_index
  FROM jsonb_to_recordset($3::jsonb) AS r(index int, status text, link_id uuid, external_id text, input jsonb, retry_of_index int)
ON CONFLICT (organization_id, retry_of_job_id, retry_of_index) WHERE retry_of_job_id IS NOT NULL DO NOTHING
RETURNING 1

-- CustomLinkJobsRepository.view
SELECT j.*, ${JOB_FIGURES} WHERE j.organization_id = $1 AND j.id = $2

-- CustomLinkJobsRepository.listPage
SELECT j.*, ${JOBS_BY_CREATION.select('j.')}, ${JOB_FIGURES} WHERE ${where.toSql()}${after}
ORDER BY ${JOBS_BY_CREATION.orderBy()} LIMIT ${where.param(window.limit)} OFFSET ${where.param(window.skip)}

-- CustomLinkJobsRepository.count
SELECT count(*) AS total FROM custom_link_jobs j WHERE ${where.toSql()}

-- CustomLinkJobsRepository.items
SELECT index, status, custom_link_id, external_id, input, error_code, error_message, ${ITEMS_BY_INDEX.select()} FROM custom_link_job_items
WHERE organization_id = $1 AND job_id = $2 AND ($5::int IS NULL OR index > $5::int) ORDER BY ${ITEMS_BY_INDEX.orderBy()} LIMIT $3 OFFSET $4

-- CustomLinkJobsRepository.items (2)
SELECT count(*) AS total FROM custom_link_job_items WHERE organization_id = $1 AND job_id = $2

-- CustomLinkJobsRepository.unfinishedItems
SELECT i.index, i.status, i.custom_link_id, i.external_id, i.input, i.error_code, i.error_message FROM custom_link_job_items i
WHERE i.organization_id = $1 AND i.job_id = $2 AND i.status IN ('failed', 'cancelled')
  AND NOT EXISTS (SELECT 1 FROM custom_link_job_items r WHERE r.organization_id = $1 AND r.retry_of_job_id = i.job_id AND r.retry_of_index = i.index)
ORDER BY i.index

-- CustomLinkJobsRepository.start
UPDATE custom_link_jobs SET status = 'processing', started_at = coalesce(started_at, $5::timestamptz), updated_at = $5,
      lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING *

-- CustomLinkJobsRepository.renewLease
UPDATE custom_link_jobs SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')

-- CustomLinkJobsRepository.lapsedWithItemsSettled
SELECT c.organization_id AS "organizationId", c.id FROM custom_link_jobs c
WHERE ${LAPSED}
  AND NOT EXISTS (SELECT 1 FROM custom_link_job_items q WHERE q.organization_id = c.organization_id AND q.job_id = c.id AND q.status = 'queued')

-- CustomLinkJobsRepository.reclaimLapsed
SELECT c.organization_id AS "organizationId", c.id FROM custom_link_jobs c
WHERE ${LAPSED}
  AND (EXISTS (SELECT 1 FROM custom_link_job_items q WHERE q.organization_id = c.organization_id AND q.job_id = c.id AND q.status = 'queued')
       OR (c.organization_id, c.id) IN (SELECT * FROM unnest($3::uuid[], $4::uuid[])))
LIMIT $2

-- CustomLinkJobsRepository.reclaimLapsed (2)
UPDATE custom_link_jobs j SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
 FROM (SELECT c.id FROM custom_link_jobs c WHERE c.organization_id = $2 AND c.id = ANY($3) AND ${LAPSED}
       FOR UPDATE OF c SKIP LOCKED) lapsed
WHERE j.organization_id = $2 AND j.id = lapsed.id
RETURNING j.organization_id AS "organizationId", j.id

-- CustomLinkJobsRepository.lock
SELECT * FROM custom_link_jobs WHERE organization_id = $1 AND id = $2 FOR UPDATE

-- CustomLinkJobsRepository.nextQueuedItem
SELECT index, status, custom_link_id, external_id, input, error_code, error_message FROM custom_link_job_items
WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' ORDER BY index LIMIT 1

-- CustomLinkJobsRepository.settleItem
UPDATE custom_link_job_items SET status = $4, error_code = $5, error_message = $6, updated_at = now()
WHERE organization_id = $1 AND job_id = $2 AND index = $3

-- CustomLinkJobsRepository.cancelQueuedItems
UPDATE custom_link_job_items SET status = 'cancelled', updated_at = now()
WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' RETURNING index, status, custom_link_id, external_id, input

-- CustomLinkJobsRepository.requestCancel
UPDATE custom_link_jobs SET cancel_requested = true, updated_at = now() WHERE organization_id = $1 AND id = $2

-- CustomLinkJobsRepository.settle
UPDATE custom_link_jobs SET status = $3, completed_at = now(), updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')

-- CustomLinkJobsRepository.touch
UPDATE custom_link_jobs SET updated_at = now()
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')

-- CustomLinkJobsRepository.redactItems
UPDATE custom_link_job_items SET input = input - $5::text[]
WHERE organization_id = $1
  AND (custom_link_id = ANY($2::uuid[])
       OR ($3::text IS NOT NULL AND lower(btrim(input->>'email')) = $3)
       OR ($4::text IS NOT NULL AND ${phoneDigitsSql(`(input->>'phone')`)} = $4))
  AND input ?| $5::text[]
