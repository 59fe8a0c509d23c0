-- Generated from src/modules/organizations/organizations.repository.ts by `npm run sql:snapshot`; do not edit.

-- OrganizationsRepository.insert
INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING *

-- OrganizationsRepository.any
SELECT 1 FROM organizations LIMIT 1

-- OrganizationsRepository.delete
DELETE FROM organizations WHERE id = $1

-- OrganizationsRepository.exists
SELECT 1 FROM organizations WHERE id = $1
