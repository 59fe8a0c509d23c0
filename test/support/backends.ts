import { ON_CITUS } from './databases';

/**
 * Statements that watch other sessions' transactions on the test database, for the specs that kill
 * a process mid-transaction. On Citus a transaction's writes and lock waits happen on the workers,
 * out of the coordinator's pg_stat_activity: there they are read from Citus's views, each
 * transaction named by its global pid.
 */

/** The other sessions whose transaction has written (or locked rows): their ids as `id`. */
export const WRITING_TRANSACTIONS = ON_CITUS
  ? `SELECT DISTINCT global_pid AS id FROM citus_stat_activity
      WHERE datname = current_database() AND is_worker_query AND backend_xid IS NOT NULL
        AND global_pid <> citus_backend_gpid()`
  : `SELECT pid AS id FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL`;

/** One row while the transaction `$1` (an id of WRITING_TRANSACTIONS) is still open and has written. */
export const TRANSACTION_WRITING = ON_CITUS
  ? `SELECT 1 FROM citus_stat_activity WHERE global_pid = $1 AND is_worker_query AND backend_xid IS NOT NULL`
  : `SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_xid IS NOT NULL`;

/** One row or more while another session waits for a lock the caller's transaction holds. */
export const WAITING_FOR_ME = ON_CITUS
  ? `SELECT 1 FROM citus_lock_waits WHERE blocking_gpid = citus_backend_gpid()`
  : `SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))`;
