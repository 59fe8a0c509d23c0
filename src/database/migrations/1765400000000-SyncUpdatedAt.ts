import type { MigrationInterface, QueryRunner } from 'typeorm';

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const SYNCED = ['sessions', 'people', 'accounts', 'custom_links'];

/**
 * Incremental sync (issue 20 point 2): `updated_since` lists read (organization_id, updated_at, id)
 * ascending, and every UPDATE that changes a synced row moves its updated_at (a BEFORE UPDATE
 * trigger, so no write path can forget it; an UPDATE that changes nothing leaves it). Accounts get
 * the index of their list (lastSeenAt newest first).
 */
export class SyncUpdatedAt1765400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The arguments name the generated columns: NULL in NEW until after BEFORE triggers.
        IF (to_jsonb(NEW) - coalesce(TG_ARGV, '{}')) IS DISTINCT FROM (to_jsonb(OLD) - coalesce(TG_ARGV, '{}')) THEN
          NEW.updated_at := greatest(now(), OLD.updated_at);
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of SYNCED) {
      const generated: { column_name: string }[] = await queryRunner.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'ALWAYS'`,
        [table],
      );
      const names = generated.map((c) => `'${c.column_name}'`).join(', ');
      await queryRunner.query(
        `CREATE TRIGGER ${table}_touch_updated_at BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION touch_updated_at(${names})`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX sessions_updated_idx ON sessions (organization_id, updated_at, id) WHERE ${VISIBLE}`,
    );
    await queryRunner.query(`CREATE INDEX people_updated_idx ON people (organization_id, updated_at, id)`);
    await queryRunner.query(`CREATE INDEX accounts_updated_idx ON accounts (organization_id, updated_at, id)`);
    await queryRunner.query(`CREATE INDEX accounts_list_idx ON accounts (organization_id, last_seen_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX custom_links_updated_idx ON custom_links (organization_id, updated_at, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of [
      'sessions_updated_idx',
      'people_updated_idx',
      'accounts_updated_idx',
      'accounts_list_idx',
      'custom_links_updated_idx',
    ]) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
    for (const table of SYNCED) await queryRunner.query(`DROP TRIGGER ${table}_touch_updated_at ON ${table}`);
    await queryRunner.query(`DROP FUNCTION touch_updated_at()`);
  }
}
