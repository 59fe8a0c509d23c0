import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes measured at 200,000 links (bench/links.js): the exact-email filter needs a plain
 * expression index (the planner cannot prove `email IS NOT NULL` from `lower(email) = $1`, so the
 * partial one went unused), and `sort=last_activity_at&order=asc` needs its own index because
 * "no activity last" is NULLS LAST in both directions, which one index cannot serve backwards.
 */
export class CustomLinkListIndexes1764100000000 implements MigrationInterface {
  name = 'CustomLinkListIndexes1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX custom_links_email_idx`);
    await queryRunner.query(`CREATE INDEX custom_links_email_idx ON custom_links (organization_id, lower(email))`);
    await queryRunner.query(
      `CREATE INDEX custom_links_activity_asc_idx ON custom_links (organization_id, last_activity_at ASC NULLS LAST, id ASC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX custom_links_activity_asc_idx`);
    await queryRunner.query(`DROP INDEX custom_links_email_idx`);
    await queryRunner.query(
      `CREATE INDEX custom_links_email_idx ON custom_links (organization_id, lower(email)) WHERE email IS NOT NULL`,
    );
  }
}
