-- Generated from src/database/migration-runs.ts by `npm run sql:snapshot`; do not edit.

-- revertLastMigration
SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1
