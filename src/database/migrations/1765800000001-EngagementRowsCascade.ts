import type { MigrationInterface, QueryRunner } from 'typeorm';

const ENGAGEMENT_TABLES = ['link_events', 'link_distinct_values', 'link_sessions'];

/**
 * link_events' foreign key to organizations checked every inserted event (a lookup and a KEY SHARE
 * lock of the organization's row per row, which concurrent batches turn into multixacts): about a
 * quarter of the cost of storing an event (issue 21). Events are written only for the organization
 * of the key that sent them, so the check never refused one; what the key still did, deleting an
 * organization's events with it, a statement trigger now does, for the other engagement tables too
 * (their rows were left behind).
 */
export class EngagementRowsCascade1765800000001 implements MigrationInterface {
  name = 'EngagementRowsCascade1765800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE link_events DROP CONSTRAINT link_events_organization_id_fkey`);
    await queryRunner.query(`
      CREATE FUNCTION engagement_rows_of_deleted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${ENGAGEMENT_TABLES.map((table) => `DELETE FROM ${table} WHERE organization_id IN (SELECT id FROM old_rows);`).join('\n        ')}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER organizations_engagement_rows AFTER DELETE ON organizations REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION engagement_rows_of_deleted_organizations()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER organizations_engagement_rows ON organizations`);
    await queryRunner.query(`DROP FUNCTION engagement_rows_of_deleted_organizations()`);
    await queryRunner.query(`
      ALTER TABLE link_events ADD CONSTRAINT link_events_organization_id_fkey
        FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE`);
  }
}
