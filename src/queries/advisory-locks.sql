-- Generated from src/common/database/advisory-locks.ts by `npm run sql:snapshot`; do not edit.

-- lockNames
SELECT pg_advisory_xact_lock($1)
