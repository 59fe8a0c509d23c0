import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed webhooks (issue 20 point 1): endpoints, the outbox of messages written with the change
 * that caused them, and one delivery row per attempt. The due index holds pending rows only: the
 * dispatcher reads those, never the history.
 */
export class Webhooks1765300000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        url varchar(2083) NOT NULL,
        event_types text[] NOT NULL,
        description varchar(255),
        active boolean NOT NULL DEFAULT true,
        secret varchar(64) NOT NULL,
        previous_secret varchar(64),
        previous_secret_until timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (organization_id, id),
        CONSTRAINT webhook_endpoints_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (organization_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(`
      CREATE TABLE webhook_messages (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        event_type varchar(64) NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_messages_pkey PRIMARY KEY (organization_id, id),
        CONSTRAINT webhook_messages_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        message_id uuid NOT NULL,
        attempt integer NOT NULL,
        status varchar(16) NOT NULL,
        response_status integer,
        duration_ms integer,
        error varchar(255),
        next_attempt_at timestamptz,
        lease_owner varchar(128),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (organization_id, id),
        CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        CONSTRAINT webhook_deliveries_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_message_fkey FOREIGN KEY (organization_id, message_id) REFERENCES webhook_messages (organization_id, id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (organization_id, endpoint_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_messages`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
  }
}
