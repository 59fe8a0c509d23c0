import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Privacy (issue 34, docs/api.md §18): erasure requests, run as jobs, and each organization's
 * suppression list. An erasure holds its subject's identifier only until it completes; a suppression
 * holds a salted hash of an email, never the email (the salt is the organization's own).
 */
export class Privacy1767000000000 implements MigrationInterface {
  name = 'Privacy1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE privacy_erasures (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        suppress boolean NOT NULL,
        subject_email varchar(320),
        subject_phone varchar(50),
        subject_person_id uuid,
        subject_resolved boolean NOT NULL DEFAULT false,
        person_id uuid,
        counts jsonb,
        failure_reason varchar(255),
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz,
        lease_owner varchar(128),
        lease_until timestamptz,
        PRIMARY KEY (organization_id, id))`);
    // The list, newest first (docs/api.md §18.1).
    await queryRunner.query(
      `CREATE INDEX privacy_erasures_list_idx ON privacy_erasures (organization_id, created_at DESC, id DESC)`,
    );
    // The reaper's scan for erasures nobody runs (as exports_unfinished_idx).
    await queryRunner.query(
      `CREATE INDEX privacy_erasures_unfinished_idx ON privacy_erasures (created_at) WHERE status IN ('queued', 'running')`,
    );
    await queryRunner.query(`
      CREATE TABLE suppression_salts (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        salt bytea NOT NULL)`);
    await queryRunner.query(`
      CREATE TABLE privacy_suppressions (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        email_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, email_hash))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE privacy_suppressions`);
    await queryRunner.query(`DROP TABLE suppression_salts`);
    await queryRunner.query(`DROP TABLE privacy_erasures`);
  }
}
