-- Generated from src/common/database/advisory-locks.ts by `npm run sql:snapshot`; do not edit.

-- lockNames
SELECT pg_advisory_xact_lock($1)

-- withSessionLock
SELECT pg_try_advisory_lock($1) AS locked

-- withSessionLock (2)
SELECT pg_advisory_unlock($1)
