-- Generated from src/modules/api-keys/api-keys.repository.ts by `npm run sql:snapshot`; do not edit.

-- ApiKeysRepository.insert
INSERT INTO api_key_lookups (id, key_hash, organization_id) VALUES ($1, $2, $3)

-- ApiKeysRepository.insert (2)
INSERT INTO api_keys (organization_id, id, name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6)

-- ApiKeysRepository.listForOrganization
SELECT * FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id

-- ApiKeysRepository.touchActiveByHash
UPDATE api_keys SET last_used_at = now()
WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL
RETURNING id, organization_id, scopes

-- ApiKeysRepository.revoke
UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3::timestamptz) WHERE organization_id = $1 AND id = $2 RETURNING *

-- ApiKeysRepository.lookup
SELECT organization_id, id FROM api_key_lookups WHERE ${column} = $1
