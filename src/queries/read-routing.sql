-- Generated from src/database/read-routing.ts by `npm run sql:snapshot`; do not edit.

-- ReadRouter.readReplayed
SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed

-- ReadRouter.recordMark
SELECT pg_current_wal_insert_lsn()::text AS lsn

-- ReadRouter.check
SELECT pg_current_wal_flush_lsn()::text AS lsn
