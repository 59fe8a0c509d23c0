import type { MigrationInterface, QueryRunner } from 'typeorm';

/** session_observations as migration ReadModels made it, and as internal events leave it. */
const observations = (human: string) => `
  CREATE OR REPLACE VIEW session_observations AS
  SELECT organization_id, session_id, custom_link_id, type, min(occurred_at) AS at
    FROM link_events WHERE ${human} AND session_id IS NOT NULL
   GROUP BY organization_id, session_id, custom_link_id, type`;

/**
 * Internal traffic (issue 32 point 4, docs/api.md §6.8): each organization's setting (its IP ranges,
 * visitor ids and User-Agent texts), each event's internal reason (null: external), and each link's
 * count of internal opens. Internal events, like bot events, move nothing else: the session detail's
 * observations leave them out too.
 */
export class InternalTraffic1766300000000 implements MigrationInterface {
  name = 'InternalTraffic1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE internal_traffic_settings (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        ip_ranges text[] NOT NULL DEFAULT '{}',
        visitor_ids text[] NOT NULL DEFAULT '{}',
        user_agent_contains text[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL)`);
    await queryRunner.query(`ALTER TABLE link_events ADD COLUMN internal_reason text`);
    await queryRunner.query(`ALTER TABLE custom_links ADD COLUMN internal_open_count integer NOT NULL DEFAULT 0`);
    await queryRunner.query(observations('NOT bot AND internal_reason IS NULL'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(observations('NOT bot'));
    await queryRunner.query(`ALTER TABLE custom_links DROP COLUMN internal_open_count`);
    await queryRunner.query(`ALTER TABLE link_events DROP COLUMN internal_reason`);
    await queryRunner.query(`DROP TABLE internal_traffic_settings`);
  }
}
