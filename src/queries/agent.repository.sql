-- Generated from src/modules/agent/agent.repository.ts by `npm run sql:snapshot`; do not edit.

-- AgentRepository.insertPublishJob
INSERT INTO publish_jobs (organization_id, id, status, requested_version) VALUES ($1, $2, 'queued', $3) RETURNING *

-- AgentRepository.publishJob
SELECT * FROM publish_jobs WHERE organization_id = $1 AND id = $2

-- AgentRepository.leasePublishJob
UPDATE publish_jobs SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')

-- AgentRepository.markPublishJob
UPDATE publish_jobs SET status = $3, error_code = $4, error_message = $5, updated_at = $6, completed_at = $7
WHERE organization_id = $1 AND id = $2
