import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One agent per organization (docs/api.md §14.1): immutable playbook versions numbered from 1 (staging is
 * the newest), the published production version on the agent row, suggestion groups, conversation
 * tests, and publish jobs. The agent row is the lock that serialises applies and publishes.
 */
export class Playbook1764400000000 implements MigrationInterface {
  name = 'Playbook1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE agents (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        staging_version integer,
        production_version integer,
        conversation_tests jsonb NOT NULL DEFAULT '[]',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE agent_versions (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        version integer NOT NULL,
        sections jsonb NOT NULL,
        sections_etag char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, version)
      )`);
    await queryRunner.query(`
      CREATE TABLE suggestion_groups (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        generation_revision integer NOT NULL DEFAULT 0,
        status varchar(16) NOT NULL DEFAULT 'open',
        changes jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    await queryRunner.query(
      `CREATE INDEX suggestion_groups_list_idx ON suggestion_groups (organization_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(`
      CREATE TABLE publish_jobs (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        requested_version integer NOT NULL,
        error_code varchar(64),
        error_message varchar(1000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (organization_id, id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE publish_jobs`);
    await queryRunner.query(`DROP TABLE suggestion_groups`);
    await queryRunner.query(`DROP TABLE agent_versions`);
    await queryRunner.query(`DROP TABLE agents`);
  }
}
