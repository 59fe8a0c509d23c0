import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = [
  'country',
  'device_type',
  'browser',
  'os',
  'referrer_domain',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];

/**
 * Where each event came from (issue 32, docs/api.md §6.3): country, device, referrer domain and UTM,
 * derived when the event is received and stored with it; never the client address. Nullable columns
 * without defaults: adding them rewrites nothing, and events stored before have none.
 */
export class EventContext1766200000000 implements MigrationInterface {
  name = 'EventContext1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE link_events ${COLUMNS.map((column) => `ADD COLUMN ${column} text`).join(', ')}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE link_events ${COLUMNS.map((column) => `DROP COLUMN ${column}`).join(', ')}`);
  }
}
