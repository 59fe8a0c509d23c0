import type { MigrationInterface, QueryRunner } from 'typeorm';

const FACETS = 'effective_qualification_status, buying_intent, booked_status';

/** Folds `live` (deltas of existing organizations) into the counts per `unit`: restated from SessionSeekCounts, as a migration is self-contained. */
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

/** The visible sessions per organization and UTC `unit`, all facets together, key covering `sessions`. */
const totalsTable = (unit: 'day' | 'hour') => `
  CREATE TABLE IF NOT EXISTS session_${unit}_totals (organization_id uuid NOT NULL, ${unit} timestamp NOT NULL, sessions bigint NOT NULL,
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    PRIMARY KEY (organization_id, ${unit}) INCLUDE (sessions))`;

/** Folds `live` into the totals per `unit`, of the deltas that carry their hour (as foldInto does the counts). */
const totalsInto = (unit: 'day' | 'hour') => `
  INSERT INTO session_${unit}_totals AS t (organization_id, ${unit}, sessions)
  SELECT organization_id, date_trunc('${unit}', hour), sum(sessions) FROM live WHERE hour IS NOT NULL
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (organization_id, ${unit}) DO UPDATE SET sessions = t.sessions + EXCLUDED.sessions`;

/** The totals per `unit` set to the sum of the compacted counts' facets (upsert: a compaction may have started them). */
const backfill = (unit: 'day' | 'hour') => `
  INSERT INTO session_${unit}_totals AS t (organization_id, ${unit}, sessions)
  SELECT organization_id, ${unit}, sum(sessions) FROM session_${unit}_counts GROUP BY 1, 2
  ON CONFLICT (organization_id, ${unit}) DO UPDATE SET sessions = EXCLUDED.sessions`;

/**
 * A deep offset's seek without facet filters (the benchmark's, and most clients') reads one row per
 * day and per hour, not one per facet combination (issue 35, point 5: at 3 M sessions a dense
 * month's days were some 1,300 count rows and a day's hours 800, against about 100 at 1 M's deepest
 * page, and the page's p50 3 M ÷ 1 M was 1.12-1.31). `session_day_totals` and `session_hour_totals`
 * are the day and hour counts summed over the facets, folded by compact_session_counts() from the
 * same deltas in its one statement, so every snapshot sees them agree with the counts. A seek with a
 * facet filter reads the counts as before; one whose totals do not add up to the month (deltas
 * without their hour) stops there, as with the counts.
 *
 * The backfill must see every delta folded by a compaction that still ran the old function (which
 * folds no totals): the new function is committed first, then, holding session_count_deltas in
 * SHARE ROW EXCLUSIVE mode (which waits for every compaction in progress and holds off the next, and
 * ingestion's deltas for as long: a second or two at 3 M sessions), the totals are set to the
 * counts' sums. Hence `transaction = false` with a transaction of its own for those statements;
 * every step can run again. A compaction that read the old function in the instant before it was
 * replaced and locked the deltas only after the backfill would fold its deltas into the counts
 * alone: the seek would see those months' totals not add up and skip within them, exact as before.
 */
export class SessionSeekTotals1767600000000 implements MigrationInterface {
  name = 'SessionSeekTotals1767600000000';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(totalsTable('day'));
    await queryRunner.query(totalsTable('hour'));
    await queryRunner.query(
      compaction([MONTHS_FOLD, foldInto('day'), foldInto('hour'), totalsInto('day'), totalsInto('hour')]),
    );
    await queryRunner.startTransaction();
    try {
      await queryRunner.query(`LOCK TABLE session_count_deltas IN SHARE ROW EXCLUSIVE MODE`);
      await queryRunner.query(backfill('day'));
      await queryRunner.query(backfill('hour'));
      await queryRunner.commitTransaction();
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(compaction([MONTHS_FOLD, foldInto('day'), foldInto('hour')]));
    await queryRunner.query(`DROP TABLE session_hour_totals`);
    await queryRunner.query(`DROP TABLE session_day_totals`);
  }
}
