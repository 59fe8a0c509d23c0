import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A retry job's item names the item it re-runs (`retry_of_job_id`, `retry_of_index`), unique, so an
 * item is re-run by at most one retry whatever the number of instances or concurrent requests
 * (issue 18: the same parent retried three times made 1,491 duplicate links).
 *
 * Retries recorded before this migration are backfilled for the oldest retry of each parent (its
 * items were taken from the parent's failed and cancelled items in index order), so a parent already
 * retried cannot be retried again; later duplicate retries, the bug this fixes, keep null.
 */
export class RetryItemsOnce1764960000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE custom_link_job_items ADD COLUMN retry_of_job_id uuid, ADD COLUMN retry_of_index integer`,
    );
    await queryRunner.query(`
      WITH first_retry AS (
        SELECT DISTINCT ON (organization_id, parent_job_id) organization_id, id, parent_job_id
          FROM custom_link_jobs WHERE parent_job_id IS NOT NULL
         ORDER BY organization_id, parent_job_id, created_at, id),
      retried AS (
        SELECT r.organization_id, r.id AS job_id, p.job_id AS parent_job_id, p.index AS parent_index,
               (row_number() OVER (PARTITION BY r.organization_id, r.id ORDER BY p.index) - 1)::int AS index
          FROM first_retry r
          JOIN custom_link_job_items p ON p.organization_id = r.organization_id AND p.job_id = r.parent_job_id
         WHERE p.status IN ('failed', 'cancelled'))
      UPDATE custom_link_job_items i SET retry_of_job_id = retried.parent_job_id, retry_of_index = retried.parent_index
        FROM retried
       WHERE i.organization_id = retried.organization_id AND i.job_id = retried.job_id AND i.index = retried.index`);
    await queryRunner.query(`
      CREATE UNIQUE INDEX custom_link_job_items_retry_of_key ON custom_link_job_items (organization_id, retry_of_job_id, retry_of_index)
       WHERE retry_of_job_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX custom_link_job_items_retry_of_key`);
    await queryRunner.query(
      `ALTER TABLE custom_link_job_items DROP COLUMN retry_of_index, DROP COLUMN retry_of_job_id`,
    );
  }
}
