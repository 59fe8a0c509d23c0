import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a bot event is one (issue 20 point 4), stored with the event, and the link's bot opens by
 * reason kept on its row with the other rollup counters (read with the link, never counted per GET).
 * Bot events stored before keep a null reason: what made them bots was not recorded, so they count
 * in bot_open_count but in no reason of bot_opens. The index serves a link's event timeline, newest
 * first (scanned backwards).
 */
export class LinkBotReasons1765500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE link_events
        ADD COLUMN bot_reason varchar(16),
        ADD CONSTRAINT link_events_bot_reason_check CHECK (bot_reason IN ('user_agent', 'prefetch', 'head_request', 'scanner'))`);
    await queryRunner.query(
      `CREATE INDEX link_events_link_idx ON link_events (organization_id, custom_link_id, occurred_at, event_id)`,
    );
    await queryRunner.query(`ALTER TABLE custom_links ADD COLUMN bot_opens jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE custom_links DROP COLUMN bot_opens`);
    await queryRunner.query(`DROP INDEX link_events_link_idx`);
    await queryRunner.query(
      `ALTER TABLE link_events DROP CONSTRAINT link_events_bot_reason_check, DROP COLUMN bot_reason`,
    );
  }
}
