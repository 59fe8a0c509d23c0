import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A read model of custom-links (README "Reading another module's data"): each link's card state, which
 * a job's view counts over the links its items made, in the job's own statement. Passing those link
 * ids out and back (up to 500 per job, on every poll of a running job) cost the API and PostgreSQL
 * enough to lift the sessions list's p99 while a job renders (bench/RESULTS.md, issue 31).
 */
export class LinkCardStates1766400000000 implements MigrationInterface {
  name = 'LinkCardStates1766400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW link_card_states AS SELECT organization_id, id AS link_id, thumbnail_status FROM custom_links`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW link_card_states`);
  }
}
