-- Generated from src/modules/maintenance/maintenance.repository.ts by `npm run sql:snapshot`; do not edit.

-- MaintenanceRepository.compactSessionCounts
SELECT compact_session_counts() AS folded
