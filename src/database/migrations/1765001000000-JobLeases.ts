import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The job rows a worker runs, with the states in which they are not finished. */
const LEASED = [
  { table: 'custom_link_jobs', unfinished: `'queued', 'processing'` },
  { table: 'thumbnail_renders', unfinished: `'queued', 'processing'` },
  { table: 'publish_jobs', unfinished: `'queued', 'running'` },
];

/**
 * Job leases (issue 18 point 4): link jobs, thumbnail renders and publish jobs name the worker that
 * runs them (`lease_owner`) and until when (`lease_until`, pushed forward while the work runs). The
 * reaper of every worker sweeps the unfinished rows whose lease lapsed, or that were never leased a
 * lease after they were recorded, and queues them again. The partial indexes hold only unfinished
 * rows: the sweep reads those, never the finished history.
 *
 * Existing unfinished rows get no lease: the first sweep after the rollout takes those nobody works
 * on, among them jobs left `processing` by a worker killed twice.
 */
export class JobLeases1765001000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, unfinished } of LEASED) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN lease_owner varchar(128), ADD COLUMN lease_until timestamptz`,
      );
      await queryRunner.query(
        `CREATE INDEX ${table}_unfinished_idx ON ${table} (lease_until) WHERE status IN (${unfinished})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of LEASED) {
      await queryRunner.query(`DROP INDEX ${table}_unfinished_idx`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN lease_until, DROP COLUMN lease_owner`);
    }
  }
}
