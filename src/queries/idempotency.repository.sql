-- Generated from src/common/idempotency/idempotency.repository.ts by `npm run sql:snapshot`; do not edit.

-- IdempotencyRepository.claim
INSERT INTO idempotency_records
  (organization_id, method, route, idempotency_key, fingerprint, state, lease_token, lease_expires_at, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, 'in_flight', $6, now() + $7 * interval '1 millisecond', now(), now() + interval '${RETENTION}')
ON CONFLICT (organization_id, method, route, idempotency_key) DO UPDATE
  SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', response_status = NULL, response_body = NULL,
      response_headers = NULL, lease_token = EXCLUDED.lease_token, lease_expires_at = EXCLUDED.lease_expires_at,
      created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
  WHERE idempotency_records.expires_at <= EXCLUDED.created_at
     OR (idempotency_records.state = 'in_flight' AND idempotency_records.lease_expires_at <= EXCLUDED.created_at
         AND idempotency_records.fingerprint = EXCLUDED.fingerprint)
RETURNING 1

-- IdempotencyRepository.find
SELECT fingerprint, state, lease_expires_at <= now() AS lease_lapsed, response_status, response_body, response_headers
FROM idempotency_records WHERE ${KEY} AND expires_at > now()

-- IdempotencyRepository.renew
UPDATE idempotency_records SET lease_expires_at = now() + $6 * interval '1 millisecond'
WHERE ${KEY} AND lease_token = $5 AND state IN ('in_flight', 'committed')

-- IdempotencyRepository.commit
UPDATE idempotency_records SET state = 'committed', response_status = $6, response_body = $7, response_headers = $8::jsonb
WHERE ${KEY} AND lease_token = $5 AND state = 'in_flight'

-- IdempotencyRepository.complete
UPDATE idempotency_records
  SET state = 'completed', response_status = ${stored('response_status', '$6')}, response_body = ${stored('response_body', '$7')},
      response_headers = ${stored('response_headers', '$8::jsonb')}
WHERE ${KEY} AND lease_token = $5

-- IdempotencyRepository.release
DELETE FROM idempotency_records WHERE ${KEY} AND lease_token = $5 AND state = 'in_flight'

-- IdempotencyRepository.release (2)
UPDATE idempotency_records SET state = 'completed' WHERE ${KEY} AND lease_token = $5 AND state = 'committed'

-- IdempotencyRepository.deleteMatching
DELETE FROM idempotency_records WHERE organization_id = $1
AND (lower(response_body) LIKE ANY($2::text[]) OR lower(response_headers::text) LIKE ANY($2::text[]))

-- IdempotencyRepository.purgeExpired
DELETE FROM idempotency_records WHERE expires_at <= now()
