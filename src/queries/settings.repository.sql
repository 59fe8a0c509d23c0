-- Generated from src/modules/settings/settings.repository.ts by `npm run sql:snapshot`; do not edit.

-- SettingsRepository.internalTraffic
SELECT ip_ranges, visitor_ids, user_agent_contains, updated_at FROM internal_traffic_settings WHERE organization_id = $1

-- SettingsRepository.saveInternalTraffic
INSERT INTO internal_traffic_settings (organization_id, ip_ranges, visitor_ids, user_agent_contains, updated_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id) DO UPDATE SET ip_ranges = EXCLUDED.ip_ranges, visitor_ids = EXCLUDED.visitor_ids,
  user_agent_contains = EXCLUDED.user_agent_contains, updated_at = EXCLUDED.updated_at
RETURNING ip_ranges, visitor_ids, user_agent_contains, updated_at
