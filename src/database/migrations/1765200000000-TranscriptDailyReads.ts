import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily transcript quota is counted in PostgreSQL (issue 18: a Redis restart must not give an
 * organization its day's reads back). Counts kept in Redis until now are not carried over: the
 * quota starts from zero once, on the day this runs.
 */
export class TranscriptDailyReads1765200000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE transcript_daily_reads (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        day date NOT NULL,
        reads integer NOT NULL,
        PRIMARY KEY (organization_id, day)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE transcript_daily_reads`);
  }
}
