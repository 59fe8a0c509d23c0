import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention (issue 34 point 5, docs/api.md §6.10): each organization's retention setting, one row per
 * organization that has set one. A null period keeps that kind of data; the daily run reads the rows.
 */
export class Retention1766900000000 implements MigrationInterface {
  name = 'Retention1766900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE retention_settings (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        transcript_days integer CHECK (transcript_days BETWEEN 1 AND 3650),
        session_days integer CHECK (session_days BETWEEN 1 AND 3650),
        event_days integer CHECK (event_days BETWEEN 1 AND 3650),
        updated_at timestamptz NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE retention_settings`);
  }
}
