-- Generated from src/modules/settings/settings.repository.ts by `npm run sql:snapshot`; do not edit.

-- SettingsRepository.internalTraffic
SELECT ip_ranges, visitor_ids, user_agent_contains, updated_at FROM internal_traffic_settings WHERE organization_id = $1

-- SettingsRepository.saveInternalTraffic
INSERT INTO internal_traffic_settings (organization_id, ip_ranges, visitor_ids, user_agent_contains, updated_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id) DO UPDATE SET ip_ranges = EXCLUDED.ip_ranges, visitor_ids = EXCLUDED.visitor_ids,
  user_agent_contains = EXCLUDED.user_agent_contains, updated_at = EXCLUDED.updated_at
RETURNING ip_ranges, visitor_ids, user_agent_contains, updated_at

-- SettingsRepository.retention
SELECT ${RETENTION_COLUMNS} FROM retention_settings WHERE organization_id = $1

-- SettingsRepository.saveRetention
INSERT INTO retention_settings (organization_id, transcript_days, session_days, event_days, updated_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id) DO UPDATE SET transcript_days = EXCLUDED.transcript_days,
  session_days = EXCLUDED.session_days, event_days = EXCLUDED.event_days, updated_at = EXCLUDED.updated_at
RETURNING ${RETENTION_COLUMNS}

-- SettingsRepository.retentionsWithPeriods
SELECT ${RETENTION_COLUMNS} FROM retention_settings
WHERE transcript_days IS NOT NULL OR session_days IS NOT NULL OR event_days IS NOT NULL
ORDER BY organization_id
