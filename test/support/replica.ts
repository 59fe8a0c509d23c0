import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { databaseUrlFor } from './test-env';
import { eventually } from './poll';

/**
 * The streaming replica of the test cluster, when the run has one (.ci/start-replica starts it;
 * TEST_REPLICA_URL names its admin database). Global setup waits until it has replayed the run's
 * freshly migrated database and sets TEST_REPLICA_DATABASE_URL to that database on the replica.
 */
export const REPLICA_DATABASE_URL = process.env.TEST_REPLICA_DATABASE_URL;

/** Waits until the replica at `replicaAdminUrl` has replayed everything the primary wrote so far; returns the run's database there. */
export async function replicaOfRunDatabase(
  primaryAdminUrl: string,
  replicaAdminUrl: string,
  name: string,
): Promise<string> {
  const lsn = await queryOne<{ lsn: string }>(primaryAdminUrl, `SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  await replayed(replicaAdminUrl, lsn.lsn, 60_000);
  return databaseUrlFor(name, replicaAdminUrl);
}

/**
 * Waits until every replica has replayed what the primary holds now: what a test observed on the
 * primary (a worker's result) is then what the API's reads see on them.
 */
export async function replayedEverywhere(
  primary: DataSource,
  replicaUrls: string[],
  timeoutMs = 15_000,
): Promise<void> {
  if (replicaUrls.length === 0) return;
  const [{ lsn }] = await primary.query<{ lsn: string }[]>(`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  for (const url of replicaUrls) await replayed(url, lsn, timeoutMs);
}

/** Waits until the replica at `url` has replayed the primary's WAL up to `lsn`. */
function replayed(url: string, lsn: string, timeoutMs: number): Promise<void> {
  const sql = `SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS "caughtUp"`;
  return eventually(async () => (await queryOne<{ caughtUp: boolean }>(url, sql, [lsn])).caughtUp, timeoutMs, 20);
}

/** One row of one statement on a connection of its own. */
export async function queryOne<T>(url: string, sql: string, params: unknown[] = []): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows[0] as T;
  } finally {
    await client.end();
  }
}
