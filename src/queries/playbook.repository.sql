-- Generated from src/modules/playbook/playbook.repository.ts by `npm run sql:snapshot`; do not edit.

-- PlaybookRepository.agent
SELECT staging_version, production_version, conversation_tests FROM agents WHERE organization_id = $1${lock ? ' FOR UPDATE' : ''}

-- PlaybookRepository.agent (2)
INSERT INTO agents (organization_id) VALUES ($1) ON CONFLICT DO NOTHING

-- PlaybookRepository.sections
SELECT sections FROM agent_versions WHERE organization_id = $1 AND version = $2

-- PlaybookRepository.addVersion
INSERT INTO agent_versions (organization_id, version, sections, sections_etag) VALUES ($1, $2, $3, $4)

-- PlaybookRepository.addVersion (2)
UPDATE agents SET staging_version = $2, updated_at = now() WHERE organization_id = $1

-- PlaybookRepository.setProduction
UPDATE agents SET production_version = $2, updated_at = now() WHERE organization_id = $1

-- PlaybookRepository.setTests
UPDATE agents SET conversation_tests = $2, updated_at = now() WHERE organization_id = $1

-- PlaybookRepository.insertGroup
INSERT INTO suggestion_groups (organization_id, id, changes) VALUES ($1, $2, $3) RETURNING id, generation_revision, status, changes, created_at

-- PlaybookRepository.group
SELECT id, generation_revision, status, changes, created_at FROM suggestion_groups WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}

-- PlaybookRepository.updateGroup
UPDATE suggestion_groups SET changes = coalesce($3::jsonb, changes), generation_revision = coalesce($4, generation_revision),
status = coalesce($5, status), updated_at = now() WHERE organization_id = $1 AND id = $2

-- PlaybookRepository.listGroups
SELECT id, generation_revision, status, changes, created_at FROM suggestion_groups WHERE organization_id = $1
ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3

-- PlaybookRepository.listGroups (2)
SELECT count(*) AS total FROM suggestion_groups WHERE organization_id = $1
