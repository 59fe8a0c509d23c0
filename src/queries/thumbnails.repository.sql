-- Generated from src/modules/thumbnails/thumbnails.repository.ts by `npm run sql:snapshot`; do not edit.

-- ThumbnailsRepository.insert
INSERT INTO thumbnail_renders (organization_id, id, custom_link_id, job_id, status) VALUES ($1, $2, $3, $4, 'queued')

-- ThumbnailsRepository.unfinishedForJob
SELECT EXISTS (SELECT 1 FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status IN ('queued', 'processing')) AS unfinished

-- ThumbnailsRepository.progressOfJobs
SELECT job_id, count(*)::int AS queued, count(*) FILTER (WHERE status NOT IN ('queued', 'processing'))::int AS settled
FROM thumbnail_renders WHERE organization_id = $1 AND job_id = ANY($2::uuid[]) GROUP BY job_id

-- ThumbnailsRepository.jobsDrawing
SELECT j.job_id FROM unnest($1::uuid[], $2::uuid[]) AS j(organization_id, job_id)
WHERE EXISTS (SELECT 1 FROM thumbnail_renders r WHERE r.organization_id = j.organization_id AND r.job_id = j.job_id
                 AND r.status IN ('queued', 'processing'))

-- ThumbnailsRepository.queuedForJob
SELECT id FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status = 'queued'

-- ThumbnailsRepository.cancelQueuedForJob
UPDATE thumbnail_renders SET status = 'cancelled', updated_at = now()
WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' RETURNING custom_link_id

-- ThumbnailsRepository.claim
WITH claimed AS (
  UPDATE thumbnail_renders SET status = 'processing', updated_at = now(), lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
   WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING id, custom_link_id, job_id, status)
SELECT claimed.* FROM claimed ${COMMIT_WITHOUT_FLUSH}

-- ThumbnailsRepository.renewLease
UPDATE thumbnail_renders SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status = 'processing'

-- ThumbnailsRepository.finish
WITH finished AS (
  UPDATE thumbnail_renders SET status = $3, updated_at = now()
   WHERE organization_id = $1 AND id = $2 AND status = 'processing' RETURNING id)
SELECT finished.id FROM finished ${COMMIT_WITHOUT_FLUSH}

-- ThumbnailsRepository.storeImage
INSERT INTO thumbnail_images (custom_link_id, hash, organization_id, png) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING

-- ThumbnailsRepository.deleteImages
DELETE FROM thumbnail_images WHERE organization_id = $1 AND custom_link_id = $2 AND hash IS DISTINCT FROM $3

-- ThumbnailsRepository.cancelUnfinishedForLink
UPDATE thumbnail_renders SET status = 'cancelled', updated_at = now()
WHERE organization_id = $1 AND custom_link_id = $2 AND status IN ('queued', 'processing') RETURNING job_id

-- ThumbnailsRepository.jobOf
SELECT job_id FROM thumbnail_renders WHERE organization_id = $1 AND id = $2

-- ThumbnailsRepository.findImage
SELECT png FROM thumbnail_images WHERE organization_id = $1 AND custom_link_id = $2 AND hash = $3
