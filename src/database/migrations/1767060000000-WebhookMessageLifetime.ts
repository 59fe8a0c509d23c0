import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook messages get a lifetime (docs/api.md §16.4): the hourly sweep finds old messages by
 * `created_at`, and deleting a message (the sweep's, an erasure's) deletes its deliveries through
 * the foreign key, which needs an index on the deliveries' message to avoid reading them all.
 * Built CONCURRENTLY (deliveries keep being written), hence `transaction = false`; an interrupted
 * build leaves an invalid index, dropped first so running again finishes.
 */
const INDEXES: [name: string, definition: string][] = [
  ['webhook_messages_created_idx', `webhook_messages (created_at)`],
  ['webhook_deliveries_message_idx', `webhook_deliveries (organization_id, message_id)`],
];

export class WebhookMessageLifetime1767060000000 implements MigrationInterface {
  name = 'WebhookMessageLifetime1767060000000';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
}
