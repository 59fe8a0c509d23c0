/**
 * A FROM item that makes its statement's transaction commit without waiting for the WAL flush
 * (synchronous_commit off, for that transaction only; PgBouncer in transaction mode keeps working).
 * Only for writes that may be lost to a PostgreSQL crash, not a restart: the last fraction of a
 * second of commits, as if they had never been made.
 */
export const COMMIT_WITHOUT_FLUSH = `(SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_flush`;
