import type { MigrationInterface, QueryRunner } from 'typeorm';

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const FACETS = 'effective_qualification_status, buying_intent, booked_status';
const HOUR = `date_trunc('hour', start_time AT TIME ZONE 'UTC')`;
const FACET_COLUMNS = `effective_qualification_status varchar(16), buying_intent varchar(16), booked_status varchar(16)`;

/**
 * The key of the counts per `unit`, covering `sessions`: a seek's step or a total reads a range of
 * it index-only (a day's hours are some 800 rows at 3 M sessions, scattered over as many heap pages).
 */
const countsKey = (table: string, unit: string) =>
  `CONSTRAINT ${table}_key UNIQUE NULLS NOT DISTINCT (organization_id, ${unit}, ${FACETS}) INCLUDE (sessions)`;

/** The compacted counts per `unit` (day or hour): the finer steps of a deep offset's seek. */
const countsTable = (unit: 'day' | 'hour') => `
  CREATE TABLE session_${unit}_counts (organization_id uuid NOT NULL, ${unit} timestamp NOT NULL, ${FACET_COLUMNS},
    sessions bigint NOT NULL,
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    ${countsKey(`session_${unit}_counts`, unit)})`;

/** Folds `live` (deltas of existing organizations) into the counts per `unit`, of the deltas that carry their hour. */
const foldInto = (unit: 'day' | 'hour') => `
  INSERT INTO session_${unit}_counts AS c (organization_id, ${unit}, ${FACETS}, sessions)
  SELECT organization_id, date_trunc('${unit}', hour), ${FACETS}, sum(sessions) FROM live WHERE hour IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ON CONSTRAINT session_${unit}_counts_key DO UPDATE SET sessions = c.sessions + EXCLUDED.sessions`;

const MONTHS_FOLD = `
  INSERT INTO session_counts AS c (organization_id, month, ${FACETS}, sessions)
  SELECT organization_id, month, ${FACETS}, sum(sessions) FROM live GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ON CONSTRAINT session_counts_key DO UPDATE SET sessions = c.sessions + EXCLUDED.sessions`;

/** compact_session_counts(): one statement, so the deltas it folds leave and arrive together for every snapshot. */
const compaction = (folds: string[]) => `
  CREATE OR REPLACE FUNCTION compact_session_counts() RETURNS bigint LANGUAGE sql AS $$
    WITH moved AS (DELETE FROM session_count_deltas RETURNING *),
         live AS (SELECT * FROM moved WHERE organization_id IN (SELECT id FROM organizations)),
         ${folds.map((fold, i) => `fold_${i} AS (${fold})`).join(',\n         ')}
    SELECT count(*) FROM moved
  $$`;

/**
 * A deep offset's seek bounded by an hour of sessions, not a month (issue 35, point 5: the deepest
 * offset page grew with the monthly volume, 7.3 × from 1 M to 3 M sessions). The list seeks its
 * month through session_counts, then the day within it through session_day_counts, then the hour
 * within the day through session_hour_counts, and skips index entries within that hour only.
 * Totals stay on the monthly counts: a month's total sums a few dozen rows, its hours thousands.
 * All three tables' keys cover `sessions` (countsKey), session_counts' from here on.
 *
 * A delta names its UTC hour (`hour`) beside its month, and the compaction folds it into all three.
 * A delta without an hour (written by an instance older than this migration during a rollout)
 * reaches the monthly counts only; the seek notices (a month whose days do not add up to it) and
 * skips within the month as before, so a page is exact whatever wrote the deltas. The backfill
 * counts both tables from the sessions in one statement (one snapshot), which the pending deltas
 * without an hour do not reach: they are in the sessions it counts already.
 */
export class SessionSeekCounts1767400000000 implements MigrationInterface {
  name = 'SessionSeekCounts1767400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(countsTable('day'));
    await queryRunner.query(countsTable('hour'));
    // Two statements: Citus refuses ADD CONSTRAINT beside another subcommand (a distributed table).
    await queryRunner.query(`ALTER TABLE session_counts DROP CONSTRAINT session_counts_key`);
    await queryRunner.query(`ALTER TABLE session_counts ADD ${countsKey('session_counts', 'month')}`);
    await queryRunner.query(`ALTER TABLE session_count_deltas ADD COLUMN hour timestamp`);
    await queryRunner.query(compaction([MONTHS_FOLD, foldInto('day'), foldInto('hour')]));
    await queryRunner.query(`
      WITH hours AS (
        SELECT organization_id, ${HOUR} AS hour, ${FACETS}, count(*) AS sessions FROM sessions WHERE ${VISIBLE}
         GROUP BY 1, 2, 3, 4, 5),
      days AS (
        INSERT INTO session_day_counts (organization_id, day, ${FACETS}, sessions)
        SELECT organization_id, date_trunc('day', hour), ${FACETS}, sum(sessions) FROM hours GROUP BY 1, 2, 3, 4, 5)
      INSERT INTO session_hour_counts (organization_id, hour, ${FACETS}, sessions) SELECT * FROM hours`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(compaction([MONTHS_FOLD]));
    await queryRunner.query(`ALTER TABLE session_count_deltas DROP COLUMN hour`);
    await queryRunner.query(`ALTER TABLE session_counts DROP CONSTRAINT session_counts_key`);
    await queryRunner.query(
      `ALTER TABLE session_counts ADD CONSTRAINT session_counts_key UNIQUE NULLS NOT DISTINCT (organization_id, month, ${FACETS})`,
    );
    await queryRunner.query(`DROP TABLE session_hour_counts`);
    await queryRunner.query(`DROP TABLE session_day_counts`);
  }
}
