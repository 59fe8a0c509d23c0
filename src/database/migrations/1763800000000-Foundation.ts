import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organizations, API keys, idempotency records and campaigns. Tenant tables lead every key and
 * index with organization_id, so each query of one organization reads one index range.
 */
export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name varchar(255) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE api_keys (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        name varchar(255),
        prefix varchar(16) NOT NULL,
        key_hash char(64) NOT NULL,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        PRIMARY KEY (organization_id, id)
      )`);
    // Authentication looks a key up by its hash before the organization is known.
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_id_key ON api_keys (id)`);

    await queryRunner.query(`
      CREATE TABLE idempotency_records (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        method varchar(10) NOT NULL,
        route varchar(255) NOT NULL,
        idempotency_key varchar(255) NOT NULL,
        fingerprint char(64) NOT NULL,
        state varchar(16) NOT NULL CHECK (state IN ('in_flight', 'completed')),
        response_status smallint,
        response_body jsonb,
        response_headers jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, method, route, idempotency_key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_records_expires_at_idx ON idempotency_records (expires_at)`);

    await queryRunner.query(`
      CREATE TABLE campaigns (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        name varchar(255) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    // Names are unique per organization regardless of case (docs/api.md §12.4).
    await queryRunner.query(`CREATE UNIQUE INDEX campaigns_name_key ON campaigns (organization_id, lower(name))`);
    // GET /custom-link-campaigns: newest first, then id.
    await queryRunner.query(
      `CREATE INDEX campaigns_created_idx ON campaigns (organization_id, created_at DESC, id DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE campaigns`);
    await queryRunner.query(`DROP TABLE idempotency_records`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE organizations`);
  }
}
