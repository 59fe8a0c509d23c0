-- Generated from src/modules/exports/exports.repository.ts by `npm run sql:snapshot`; do not edit.

-- ExportsRepository.insert
INSERT INTO exports (organization_id, id, resource, format, filters) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}

-- ExportsRepository.find
SELECT ${COLUMNS} FROM exports WHERE organization_id = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())

-- ExportsRepository.startRun
UPDATE exports SET status = 'processing', run_id = $3, lease_owner = $4, lease_until = now() + $5 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING ${COLUMNS}

-- ExportsRepository.startRun (2)
DELETE FROM export_chunks WHERE organization_id = $1 AND export_id = $2 AND run_id <> $3

-- ExportsRepository.renewLease
UPDATE exports SET lease_owner = $4, lease_until = now() + $5 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'

-- ExportsRepository.appendChunk
SELECT 1 FROM exports WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing' FOR SHARE

-- ExportsRepository.appendChunk (2)
INSERT INTO export_chunks (organization_id, export_id, run_id, seq, data) VALUES ($1, $2, $3, $4, $5)

-- ExportsRepository.complete
UPDATE exports SET status = 'completed', row_count = $4, completed_at = now(), expires_at = now() + $5 * interval '1 millisecond', lease_owner = NULL, lease_until = NULL
WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'

-- ExportsRepository.fail
UPDATE exports SET status = 'failed', completed_at = now(), expires_at = now() + $4 * interval '1 millisecond', lease_owner = NULL, lease_until = NULL
WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'

-- ExportsRepository.fail (2)
DELETE FROM export_chunks WHERE organization_id = $1 AND export_id = $2

-- ExportsRepository.chunkAfter
SELECT seq, data FROM export_chunks WHERE organization_id = $1 AND export_id = $2 AND run_id = $3 AND seq > $4 ORDER BY seq LIMIT 1

-- ExportsRepository.withFiles
SELECT id, run_id FROM exports WHERE organization_id = $1 AND status = 'completed' AND run_id IS NOT NULL

-- ExportsRepository.filteredBy
SELECT id FROM exports WHERE organization_id = $1 AND lower(filters::text) LIKE ANY($2::text[])

-- ExportsRepository.deleteExports
DELETE FROM exports WHERE organization_id = $1 AND id = ANY($2::uuid[])

-- ExportsRepository.deleteExpired
DELETE FROM exports e USING (SELECT organization_id, id FROM exports WHERE expires_at <= now() LIMIT $1) expired
WHERE e.organization_id = expired.organization_id AND e.id = expired.id
