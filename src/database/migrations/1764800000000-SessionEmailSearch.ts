import type { MigrationInterface, QueryRunner } from 'typeorm';

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const COLUMNS =
  'organization_id, id, start_time, email_key, effective_qualification_status, buying_intent, booked_status';
const FACETS = 'effective_qualification_status, buying_intent, booked_status';

/** A transition table's sessions that the email search holds: visible, with an email. */
const searchable = (rows: string) => `SELECT ${COLUMNS} FROM ${rows} WHERE ${VISIBLE} AND email_key IS NOT NULL`;
const remove = (keys: string) =>
  `DELETE FROM session_emails e USING (${keys}) g WHERE e.organization_id = g.organization_id AND e.id = g.id;`;
const upsert = (rows: string) => `
  INSERT INTO session_emails (${COLUMNS}) ${rows}
  ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
    effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
    booked_status = EXCLUDED.booked_status;`;
const keysOf = (rows: string) => `SELECT organization_id, id FROM (${rows}) r`;
const TRACK_BODIES = {
  insert: upsert(searchable('new_rows')),
  // Only rows whose searchable projection changed: a person rollup that leaves them alone writes nothing.
  update: `${remove(`${keysOf(searchable('old_rows'))} EXCEPT ${keysOf(searchable('new_rows'))}`)}
    ${upsert(`${searchable('new_rows')} EXCEPT ${searchable('old_rows')}`)}`,
  delete: remove(keysOf(searchable('old_rows'))),
};

/**
 * session_emails_track() runs after each INSERT, UPDATE and DELETE statement on sessions, once per
 * statement, and sees its rows as the transition tables `old_rows` / `new_rows`.
 */
const TRIGGERS = {
  up: [
    `CREATE FUNCTION session_emails_track() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN ${TRACK_BODIES.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${TRACK_BODIES.update}
         ELSE ${TRACK_BODIES.delete}
         END IF;
         RETURN NULL;
       END $$`,
    `CREATE TRIGGER sessions_email_search_insert AFTER INSERT ON sessions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_emails_track()`,
    `CREATE TRIGGER sessions_email_search_update AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_emails_track()`,
    `CREATE TRIGGER sessions_email_search_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_emails_track()`,
  ],
  down: [
    `DROP TRIGGER sessions_email_search_delete ON sessions`,
    `DROP TRIGGER sessions_email_search_update ON sessions`,
    `DROP TRIGGER sessions_email_search_insert ON sessions`,
    `DROP FUNCTION session_emails_track()`,
  ],
};

/**
 * GET /sessions?email=… searches a narrow copy of the visible sessions' emails instead of the
 * sessions table. Through the trigram index a substring finds candidate rows that must be rechecked
 * on the table itself; on `sessions` (about 1.5 KB a row) each candidate cost a page read, and a
 * substring like `zoe@` has thousands of candidates. `session_emails` holds about 100 bytes a row,
 * so its rows and indexes stay in PostgreSQL's cache far better (bench/RESULTS.md).
 *
 * Statement-level triggers keep it in the writing transaction, so a search sees exactly the
 * sessions its snapshot sees. The list index no longer needs `email_key`, and the trigram index on
 * sessions is gone.
 *
 * Both list indexes are ascending and read backwards for "newest first". Sessions arrive roughly in
 * start-time order: in a descending index every new key lands on the leftmost leaf, which splits
 * half-full, and the index grew to about twice its built size (199 MB against 113 MB for this one
 * at a million sessions); ascending, new keys land on the rightmost leaf, which PostgreSQL keeps full.
 */
export class SessionEmailSearch1764800000000 implements MigrationInterface {
  name = 'SessionEmailSearch1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE session_emails (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        start_time timestamptz NOT NULL,
        email_key varchar(320) NOT NULL,
        effective_qualification_status varchar(16),
        buying_intent varchar(16),
        booked_status varchar(16),
        PRIMARY KEY (organization_id, id))`);
    await queryRunner.query(`INSERT INTO session_emails (${COLUMNS}) ${searchable('sessions')}`);
    await queryRunner.query(
      `CREATE INDEX session_emails_trgm_idx ON session_emails USING gin (email_key gin_trgm_ops)`,
    );
    // A common substring (a free-mail domain) is found fastest by walking this index newest first (backwards).
    await queryRunner.query(`
      CREATE INDEX session_emails_list_idx ON session_emails (organization_id, start_time, id) INCLUDE (email_key, ${FACETS})`);
    // Choosing between the walk and the trigram index needs a good estimate of how many emails contain a substring.
    await queryRunner.query(`ALTER TABLE session_emails ALTER COLUMN email_key SET STATISTICS 2000`);
    for (const statement of TRIGGERS.up) await queryRunner.query(statement);

    await queryRunner.query(`DROP INDEX sessions_email_trgm_idx`);
    await this.replaceListIndex(queryRunner, '', FACETS);
    await queryRunner.query(`ALTER TABLE sessions ALTER COLUMN email_key SET STATISTICS -1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sessions ALTER COLUMN email_key SET STATISTICS 2000`);
    await this.replaceListIndex(queryRunner, ' DESC', `${FACETS}, email_key`);
    await queryRunner.query(
      `CREATE INDEX sessions_email_trgm_idx ON sessions USING gin (email_key gin_trgm_ops) WHERE ${VISIBLE}`,
    );
    for (const statement of TRIGGERS.down) await queryRunner.query(statement);
    await queryRunner.query(`DROP TABLE session_emails`);
  }

  private async replaceListIndex(queryRunner: QueryRunner, direction: '' | ' DESC', included: string): Promise<void> {
    await queryRunner.query(`DROP INDEX sessions_list_idx`);
    await queryRunner.query(`
      CREATE INDEX sessions_list_idx ON sessions (organization_id, start_time${direction}, id${direction}) INCLUDE (${included}) WHERE ${VISIBLE}`);
  }
}
