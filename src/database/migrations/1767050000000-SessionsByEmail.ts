import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every session of an email, visible or not (issue 34, docs/api.md §18): the right of access reads a
 * person's sessions, and erasure finds them, whatever their environment or analysis status.
 * sessions_person_key_idx holds visible sessions only, so without this index a staging or pending
 * session of the email is found only by reading all of the organization's sessions, past the
 * statement timeout on a large one.
 *
 * Built CONCURRENTLY, so sessions keep being written while it builds; that cannot run in a
 * transaction, hence `transaction = false`. An interrupted build leaves an invalid index: it is
 * dropped first, so running again finishes.
 */
export class SessionsByEmail1767050000000 implements MigrationInterface {
  name = 'SessionsByEmail1767050000000';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS sessions_email_key_idx`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY sessions_email_key_idx ON sessions (organization_id, email_key) WHERE email_key IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS sessions_email_key_idx`);
  }
}
