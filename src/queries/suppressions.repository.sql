-- Generated from src/modules/suppressions/suppressions.repository.ts by `npm run sql:snapshot`; do not edit.

-- SuppressionsRepository.saltFor
INSERT INTO suppression_salts (organization_id, salt) VALUES ($1, $2) ON CONFLICT (organization_id) DO NOTHING

-- SuppressionsRepository.saltFor (2)
SELECT salt FROM suppression_salts WHERE organization_id = $1

-- SuppressionsRepository.salt
SELECT salt FROM suppression_salts WHERE organization_id = $1

-- SuppressionsRepository.add
INSERT INTO privacy_suppressions (organization_id, email_hash) VALUES ($1, $2)
ON CONFLICT (organization_id, email_hash) DO NOTHING

-- SuppressionsRepository.listed
SELECT email_hash FROM privacy_suppressions WHERE organization_id = $1 AND email_hash = ANY($2::bpchar[])
