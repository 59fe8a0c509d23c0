import type { MigrationInterface, QueryRunner } from 'typeorm';

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const FACETS = 'effective_qualification_status, buying_intent, booked_status';
const MONTH = `date_trunc('month', start_time AT TIME ZONE 'UTC')`;

/** A transition table's visible sessions, each counting `sign`. */
const delta = (rows: string, sign: number) =>
  `SELECT organization_id, ${MONTH} AS month, ${FACETS}, ${sign} AS sessions FROM ${rows} WHERE ${VISIBLE}`;
/** Appends a statement's net changes per organization, month and enum values. */
const append = (parts: string[]) => `
  INSERT INTO session_count_deltas (organization_id, month, ${FACETS}, sessions)
  SELECT organization_id, month, ${FACETS}, sum(sessions) FROM (${parts.join(' UNION ALL ')}) d
   GROUP BY organization_id, month, ${FACETS} HAVING sum(sessions) <> 0;`;
const TRACK_BODIES = {
  insert: append([delta('new_rows', 1)]),
  update: append([delta('old_rows', -1), delta('new_rows', 1)]),
  delete: append([delta('old_rows', -1)]),
};

/**
 * session_counts_track() runs after each INSERT, UPDATE and DELETE statement on sessions, once per
 * statement, and sees its rows as the transition tables `old_rows` / `new_rows`.
 */
const TRIGGERS = {
  up: [
    `CREATE FUNCTION session_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN ${TRACK_BODIES.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${TRACK_BODIES.update}
         ELSE ${TRACK_BODIES.delete}
         END IF;
         RETURN NULL;
       END $$`,
    `CREATE TRIGGER sessions_count_insert AFTER INSERT ON sessions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_track()`,
    `CREATE TRIGGER sessions_count_update AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_track()`,
    `CREATE TRIGGER sessions_count_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_track()`,
  ],
  down: [
    `DROP TRIGGER sessions_count_delete ON sessions`,
    `DROP TRIGGER sessions_count_update ON sessions`,
    `DROP TRIGGER sessions_count_insert ON sessions`,
    `DROP FUNCTION session_counts_track()`,
  ],
};

/**
 * Exact session totals without counting a million rows per request: visible sessions counted per
 * organization, UTC month and enum filter values (GET /sessions filters on these), so a total is a
 * sum over a few hundred rows and a deep offset can seek to its month first.
 *
 * Statement-level triggers append the changes of every write to `session_count_deltas` in the
 * writing transaction: the counts are exactly as current as the sessions any snapshot sees. Writers
 * only insert, so concurrent ingestions never wait for each other on a counter row or deadlock; a
 * reader sums `session_counts` and the pending deltas, and a maintenance job folds deltas into
 * `session_counts` atomically (compact_session_counts).
 */
export class SessionCounts1764500000000 implements MigrationInterface {
  name = 'SessionCounts1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const columns = `organization_id uuid NOT NULL, month timestamp NOT NULL, effective_qualification_status varchar(16),
      buying_intent varchar(16), booked_status varchar(16), sessions bigint NOT NULL`;
    await queryRunner.query(`
      CREATE TABLE session_counts (${columns},
        FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
        CONSTRAINT session_counts_key UNIQUE NULLS NOT DISTINCT (organization_id, month, ${FACETS}))`);
    // No foreign key: deleting an organization cascades to its sessions, whose trigger still appends deltas.
    await queryRunner.query(`CREATE TABLE session_count_deltas (${columns})`);
    await queryRunner.query(`CREATE INDEX session_count_deltas_org_idx ON session_count_deltas (organization_id)`);

    for (const statement of TRIGGERS.up) await queryRunner.query(statement);

    // One statement: the deltas it folds leave and arrive together for every snapshot.
    await queryRunner.query(`
      CREATE FUNCTION compact_session_counts() RETURNS bigint LANGUAGE sql AS $$
        WITH moved AS (DELETE FROM session_count_deltas RETURNING *),
             summed AS (
               SELECT organization_id, month, ${FACETS}, sum(sessions) AS sessions FROM moved
                WHERE organization_id IN (SELECT id FROM organizations)
                GROUP BY organization_id, month, ${FACETS}),
             merged AS (
               INSERT INTO session_counts AS c (organization_id, month, ${FACETS}, sessions)
               SELECT * FROM summed ORDER BY organization_id, month, ${FACETS}
               ON CONFLICT ON CONSTRAINT session_counts_key DO UPDATE SET sessions = c.sessions + EXCLUDED.sessions)
        SELECT count(*) FROM moved
      $$`);

    await queryRunner.query(`
      INSERT INTO session_counts (organization_id, month, ${FACETS}, sessions)
      SELECT organization_id, ${MONTH}, ${FACETS}, count(*) FROM sessions WHERE ${VISIBLE}
       GROUP BY organization_id, ${MONTH}, ${FACETS}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of TRIGGERS.down) await queryRunner.query(statement);
    await queryRunner.query(`DROP FUNCTION compact_session_counts()`);
    await queryRunner.query(`DROP TABLE session_count_deltas`);
    await queryRunner.query(`DROP TABLE session_counts`);
  }
}
