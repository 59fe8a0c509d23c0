-- Generated from src/modules/webhooks/webhooks.repository.ts by `npm run sql:snapshot`; do not edit.

-- WebhooksRepository.countEndpoints
SELECT count(*) AS count FROM webhook_endpoints WHERE organization_id = $1

-- WebhooksRepository.insertEndpoint
INSERT INTO webhook_endpoints (organization_id, id, url, event_types, description, secret, filter_campaign_ids, filter_link_ids)
VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[]) RETURNING *

-- WebhooksRepository.listEndpoints
SELECT *, ${NEWEST_FIRST.select()} FROM webhook_endpoints WHERE organization_id = $1 ${after} ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2 OFFSET $3

-- WebhooksRepository.endpoint
SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2

-- WebhooksRepository.updateEndpoint
UPDATE webhook_endpoints SET
      url = coalesce($3::text, url),
      event_types = coalesce($4::text[], event_types),
      description = CASE WHEN $5::boolean THEN $6::text ELSE description END,
      active = coalesce($7::boolean, active),
      failing_since = CASE WHEN $7::boolean THEN NULL ELSE failing_since END,
      filter_campaign_ids = CASE WHEN $8::boolean THEN $9::uuid[] ELSE filter_campaign_ids END,
      filter_link_ids = CASE WHEN $8::boolean THEN $10::uuid[] ELSE filter_link_ids END,
      updated_at = now()
WHERE organization_id = $1 AND id = $2 RETURNING *

-- WebhooksRepository.deleteEndpoint
DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2

-- WebhooksRepository.rotateSecret
UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = now() + $4 * interval '1 millisecond', secret = $3, updated_at = now()
WHERE organization_id = $1 AND id = $2 RETURNING *

-- WebhooksRepository.recordMessages
WITH m AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::uuid[], $7::uuid[])
           WITH ORDINALITY AS m(id, event_type, body, link_scoped, link_id, campaign_id, ord)
), recipients AS (
  SELECT m.id AS message_id, m.ord, e.id AS endpoint_id
    FROM m JOIN webhook_endpoints e ON e.organization_id = $1 AND e.active AND m.event_type = ANY (e.event_types)
   WHERE NOT m.link_scoped OR e.filter_link_ids IS NULL
      OR (e.id, m.link_id) IN (SELECT f.id, t.id FROM webhook_endpoints f CROSS JOIN LATERAL unnest(f.filter_link_ids) AS t(id) WHERE f.organization_id = $1)
      OR (e.id, m.campaign_id) IN (SELECT f.id, t.id FROM webhook_endpoints f CROSS JOIN LATERAL unnest(f.filter_campaign_ids) AS t(id) WHERE f.organization_id = $1)
), stored AS (
  INSERT INTO webhook_messages (organization_id, id, event_type, body)
  SELECT $1, m.id, m.event_type, m.body FROM m WHERE m.id IN (SELECT message_id FROM recipients) ORDER BY m.ord
)
INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at)
SELECT $1, gen_random_uuid(), r.endpoint_id, r.message_id, 1, 'pending', now() FROM recipients r ORDER BY r.ord, r.endpoint_id

-- WebhooksRepository.subscribedTypes
SELECT DISTINCT t.type FROM webhook_endpoints e CROSS JOIN LATERAL unnest(e.event_types) AS t(type)
WHERE e.organization_id = $1 AND e.active AND t.type = ANY($2::text[])

-- WebhooksRepository.anySubscribed
SELECT 1 FROM webhook_endpoints WHERE organization_id = $1 AND active AND $2 = ANY (event_types) LIMIT 1

-- WebhooksRepository.listDeliveries
SELECT ${DELIVERY_COLUMNS}, ${DELIVERIES_NEWEST_FIRST.select()} FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
WHERE ${where} ${after} ORDER BY ${DELIVERIES_NEWEST_FIRST.orderBy()} LIMIT $4 OFFSET $5

-- WebhooksRepository.listDeliveries (2)
SELECT count(*) AS count FROM webhook_deliveries d WHERE ${where}

-- WebhooksRepository.delivery
SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = $3

-- WebhooksRepository.insertManualAttempt
SELECT coalesce(max(attempt), 0) + 1 AS attempt FROM webhook_deliveries
WHERE organization_id = $1 AND endpoint_id = $2 AND message_id = $3

-- WebhooksRepository.insertManualAttempt (2)
INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at, lease_until)
VALUES ($1, $2, $3, $4, $5, 'pending', now(), now() + $6 * interval '1 millisecond')

-- WebhooksRepository.claimDue
SELECT organization_id AS "organizationId", id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT $1

-- WebhooksRepository.claimDue (2)
UPDATE webhook_deliveries d SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
 FROM (SELECT id FROM webhook_deliveries WHERE organization_id = $2 AND id = ANY($3) AND ${DUE} FOR UPDATE SKIP LOCKED) due
WHERE d.organization_id = $2 AND d.id = due.id
RETURNING d.organization_id AS "organizationId", d.id

-- WebhooksRepository.leaseForSending
UPDATE webhook_deliveries SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
WHERE organization_id = $1 AND id = $2 AND status = 'pending' RETURNING endpoint_id, message_id

-- WebhooksRepository.leaseForSending (2)
SELECT body FROM webhook_messages WHERE organization_id = $1 AND id = $2

-- WebhooksRepository.recordAttempt
UPDATE webhook_deliveries SET status = $3::text, response_status = $4, duration_ms = $5, error = $6, next_attempt_at = $7, lease_owner = NULL, lease_until = NULL
WHERE organization_id = $1 AND id = $2 AND status = 'pending'

-- WebhooksRepository.recordAttempt (2)
INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6)

-- WebhooksRepository.recordAttempt (3)
UPDATE webhook_endpoints SET failing_since = CASE WHEN $3::boolean THEN NULL ELSE coalesce(failing_since, $5::timestamptz) END,
      active = active AND NOT $4::boolean, updated_at = CASE WHEN $4::boolean AND active THEN $5 ELSE updated_at END
WHERE organization_id = $1 AND id = $2

-- WebhooksRepository.deleteMessagesBefore
DELETE FROM webhook_messages m USING (
 SELECT organization_id, id FROM webhook_messages o
  WHERE created_at < $1 AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries d
     WHERE d.organization_id = o.organization_id AND d.message_id = o.id AND d.status = 'pending')
  LIMIT $2) old
WHERE m.organization_id = old.organization_id AND m.id = old.id

-- WebhooksRepository.deleteMessagesMatching
WITH gone AS (
  DELETE FROM webhook_messages WHERE organization_id = $1 AND lower(body) LIKE ANY($2::text[]) RETURNING id)
SELECT count(d.id)::text AS deliveries FROM gone g
  JOIN webhook_deliveries d ON d.organization_id = $1 AND d.message_id = g.id
