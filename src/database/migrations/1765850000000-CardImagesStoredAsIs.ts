import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Share-card PNGs are stored out of line without PostgreSQL's compression attempt: PNG data is
 * already deflated, and pglz ran over every card (60-75 KB) only to keep it as it was, about 8% of
 * PostgreSQL's CPU samples while a job's cards were written. Applies to rows written from now on.
 */
export class CardImagesStoredAsIs1765850000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE thumbnail_images ALTER COLUMN png SET STORAGE EXTERNAL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE thumbnail_images ALTER COLUMN png SET STORAGE EXTENDED`);
  }
}
