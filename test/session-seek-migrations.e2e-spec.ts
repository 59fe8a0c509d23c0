import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { migrationDataSourceOptions } from '../src/database/data-source-options';
import { revertLastMigration } from '../src/database/migration-runs';
import { MIGRATIONS } from '../src/database/migrations';
import { BULK_SESSIONS, compactSessionCounts, insertSessions, sessionCountDrift, VISIBLE } from './support/aggregates';
import { createDatabaseBefore, dropDatabase, migrate, ON_CITUS } from './support/databases';

/**
 * The seek's count migrations and every one after them, run on a filled database as an upgrade runs
 * them: on Citus the database before them is distributed (a cluster that ran the first Citus
 * schema), so they change distributed tables and the distribution step then distributes the tables
 * they created. Their backfills must leave the day and hour counts and totals agreeing with the
 * sessions, with deltas still pending from before them (which name no hour), through a compaction,
 * new sessions, and a revert of them all and a second run.
 */
jest.setTimeout(240_000);

const FIRST = 'SessionSeekCounts1767400000000';
const LATER = MIGRATIONS.slice(MIGRATIONS.findIndex((migration) => migration.name === FIRST)).map((m) => m.name);

const FACETS = 'effective_qualification_status, buying_intent, booked_status';
/** The monthly counts of $1's visible sessions, as the compaction made them before the seek's migrations. */
const monthlyCounts = (table: 'session_counts' | 'session_count_deltas') => `
  INSERT INTO ${table} (organization_id, month, ${FACETS}, sessions)
  SELECT organization_id, date_trunc('month', start_time AT TIME ZONE 'UTC'), ${FACETS}, count(*)
    FROM sessions WHERE organization_id = $1 AND ${VISIBLE} GROUP BY 1, 2, 3, 4, 5`;

/** Tables of the public schema Citus does not know (the migrations' own table is the coordinator's). */
const UNDISTRIBUTED = `
  SELECT c.relname FROM pg_class c
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> 'typeorm_migrations'
     AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
   ORDER BY 1`;
/** Distributed tables outside the organizations' co-location group, but for those distributed by another column. */
const APART = `
  SELECT logicalrelid::text AS name FROM pg_dist_partition
   WHERE partmethod = 'h' AND column_to_column_name(logicalrelid, partkey) = 'organization_id'
     AND colocationid <> (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'organizations'::regclass)
   ORDER BY 1`;

describe(`the migrations from ${FIRST} on, on a filled database${ON_CITUS ? ' distributed on Citus' : ''}`, () => {
  const name = `engagement_seek_migrations_${process.pid}`;
  const counted = randomUUID();
  const pending = randomUUID();
  let url: string;
  let pool: Pool;

  beforeAll(async () => {
    url = await createDatabaseBefore(name, FIRST);
    pool = new Pool({ connectionString: url, max: 2 });
    for (const [seed, id] of [counted, pending].entries()) {
      await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'upgrade')`, [id]);
      await pool.query(BULK_SESSIONS, [id, 3000, '2026-03-30T22:00:00Z', 7200, seed]);
    }
    // One organization compacted, the other's deltas still pending (written before, so without their hour).
    await pool.query(monthlyCounts('session_counts'), [counted]);
    await pool.query(monthlyCounts('session_count_deltas'), [pending]);
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(name);
  });

  it("runs migrations over connections that send a multi-shard command one worker connection at a time (Citus's sequential mode)", async () => {
    const migrations = new DataSource(migrationDataSourceOptions(url));
    await migrations.initialize();
    try {
      expect(await migrations.query(`SHOW citus.multi_shard_modify_mode`)).toEqual([
        { 'citus.multi_shard_modify_mode': 'sequential' },
      ]);
    } finally {
      await migrations.destroy();
    }
  });

  it('runs them and, on Citus, distributes what they created beside the organizations', async () => {
    expect(await migrate(url)).toEqual(LATER);
    if (!ON_CITUS) return;
    expect((await pool.query(UNDISTRIBUTED)).rows).toEqual([]);
    expect((await pool.query(APART)).rows).toEqual([]);
  });

  it('leaves day and hour counts and totals that agree with the sessions, before and after a compaction', async () => {
    const { rows } = await pool.query<{ days: number; hours: number }>(
      `SELECT (SELECT count(*) FROM session_day_totals)::int AS days, (SELECT count(*) FROM session_hour_totals)::int AS hours`,
    );
    expect(rows[0].days).toBeGreaterThan(100);
    expect(rows[0].hours).toBeGreaterThan(rows[0].days);
    expect(await sessionCountDrift(pool)).toEqual([]);
    expect(await compactSessionCounts(pool)).toBeGreaterThan(0);
    expect(await sessionCountDrift(pool)).toEqual([]);
  });

  it('counts sessions written after them, compacted by the new function', async () => {
    await insertSessions(pool, pending, { count: 600, first: '2026-05-01T00:30:00Z', stepSeconds: 3600, seed: 7 });
    expect(await sessionCountDrift(pool)).toEqual([]);
    expect(await compactSessionCounts(pool)).toBeGreaterThan(0);
    expect(await sessionCountDrift(pool)).toEqual([]);
  });

  it('reverts every one of them and runs them again to the same counts', async () => {
    const migrations = new DataSource(migrationDataSourceOptions(url));
    await migrations.initialize();
    const reverted: string[] = [];
    try {
      for (let n = 0; n < LATER.length; n++) reverted.push((await revertLastMigration(migrations)) ?? '');
    } finally {
      await migrations.destroy();
    }
    expect(reverted).toEqual([...LATER].reverse());
    const { rows } = await pool.query(
      `SELECT to_regclass('session_day_counts') AS days, to_regclass('session_day_totals') AS totals`,
    );
    expect(rows).toEqual([{ days: null, totals: null }]);

    expect(await migrate(url)).toEqual(LATER);
    expect(await sessionCountDrift(pool)).toEqual([]);
    if (ON_CITUS) expect((await pool.query(UNDISTRIBUTED)).rows).toEqual([]);
  });
});
