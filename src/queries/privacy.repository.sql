-- Generated from src/modules/privacy/privacy.repository.ts by `npm run sql:snapshot`; do not edit.

-- PrivacyRepository.insert
INSERT INTO privacy_erasures (organization_id, id, status, suppress, subject_email, subject_phone, subject_person_id, created_at)
VALUES ($1, $2, 'queued', $3, $4, $5, $6, now()) RETURNING *

-- PrivacyRepository.find
SELECT * FROM privacy_erasures WHERE organization_id = $1 AND id = $2

-- PrivacyRepository.listPage
SELECT *, ${NEWEST_FIRST.select()} FROM privacy_erasures WHERE organization_id = $1 ${after}
ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2

-- PrivacyRepository.start
UPDATE privacy_erasures
  SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, $5::timestamptz),
      lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING *

-- PrivacyRepository.renewLease
UPDATE privacy_erasures SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status = 'running'

-- PrivacyRepository.resolve
UPDATE privacy_erasures SET subject_email = $3, person_id = $4, subject_resolved = true
WHERE organization_id = $1 AND id = $2 AND status = 'running' AND NOT subject_resolved

-- PrivacyRepository.addCounts
UPDATE privacy_erasures SET counts = (
 SELECT jsonb_object_agg(kind, coalesce((counts ->> kind)::int, 0) + coalesce(($3::jsonb ->> kind)::int, 0))
   FROM unnest($4::text[]) kind)
WHERE organization_id = $1 AND id = $2 AND status = 'running'

-- PrivacyRepository.complete
UPDATE privacy_erasures SET status = 'completed', completed_at = now(), ${FORGET_SUBJECT}
WHERE organization_id = $1 AND id = $2 AND status = 'running' RETURNING *

-- PrivacyRepository.fail
UPDATE privacy_erasures SET status = 'failed', completed_at = now(), failure_reason = $3, ${FORGET_SUBJECT}
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')
