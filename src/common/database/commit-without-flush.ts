/**
 * Joined after the rows a write returns, in the statement that reads them (`WITH written AS (UPDATE …
 * RETURNING …) SELECT … FROM written ${COMMIT_WITHOUT_FLUSH}`): makes the statement's transaction
 * commit without waiting for the WAL flush (synchronous_commit off, for that transaction only;
 * PgBouncer in transaction mode keeps working). Only for writes that may be lost to a PostgreSQL
 * crash, not a restart: the last fraction of a second of commits, as if they had never been made.
 * Outside the write itself: Citus refuses a volatile function (set_config) in an UPDATE on a
 * distributed table, not in the SELECT around it (docs/scaling.md, "Citus compatibility (statements)").
 */
export const COMMIT_WITHOUT_FLUSH = `CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_flush`;
