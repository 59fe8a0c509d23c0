-- Generated from src/modules/campaigns/campaigns.repository.ts by `npm run sql:snapshot`; do not edit.

-- CampaignsRepository.listPage
SELECT id, name, created_at, updated_at, ${NEWEST_FIRST.select()}
FROM campaigns WHERE organization_id = $1 ${after} ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2 OFFSET $3

-- CampaignsRepository.listPage (2)
SELECT count(*) AS total FROM campaigns WHERE organization_id = $1

-- CampaignsRepository.insert
INSERT INTO campaigns (organization_id, id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
RETURNING id, name, created_at, updated_at

-- CampaignsRepository.rename
UPDATE campaigns SET name = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2 RETURNING id, name, created_at, updated_at

-- CampaignsRepository.lock
SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2 FOR UPDATE

-- CampaignsRepository.delete
DELETE FROM campaigns WHERE organization_id = $1 AND id = $2

-- CampaignsRepository.exists
SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2

-- CampaignsRepository.findOrCreateByName
INSERT INTO campaigns (organization_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (organization_id, lower(name)) DO NOTHING

-- CampaignsRepository.findOrCreateByName (2)
SELECT id FROM campaigns WHERE organization_id = $1 AND lower(name) = lower($2)
