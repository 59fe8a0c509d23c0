import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The generated columns, which touch_updated_at leaves out of its comparison (migration SyncUpdatedAt). */
async function touchTrigger(queryRunner: QueryRunner, when: string): Promise<string> {
  const generated: { column_name: string }[] = await queryRunner.query(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'custom_links' AND is_generated = 'ALWAYS'`,
  );
  return `CREATE TRIGGER custom_links_touch_updated_at BEFORE UPDATE ON custom_links FOR EACH ROW ${when}
          EXECUTE FUNCTION touch_updated_at(${generated.map((c) => `'${c.column_name}'`).join(', ')})`;
}

/**
 * Event ingestion rewrites hundreds of link rollups per batch (issue 21): the touch trigger's row
 * comparison (two to_jsonb of the whole row per link) cost as much as the rollup merge's own SQL. An
 * UPDATE that moves updated_at forward itself has already said the row changed, and the trigger would
 * only keep that value (greatest(now(), OLD.updated_at)), so it is skipped then; the rollup merge
 * writes only the links whose rollup changes and moves their updated_at. Every other UPDATE is
 * compared as before.
 */
export class LinkRollupWrites1765800000000 implements MigrationInterface {
  name = 'LinkRollupWrites1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const trigger = await touchTrigger(queryRunner, 'WHEN (NOT NEW.updated_at > OLD.updated_at)');
    await queryRunner.query(`DROP TRIGGER custom_links_touch_updated_at ON custom_links`);
    await queryRunner.query(trigger);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const trigger = await touchTrigger(queryRunner, '');
    await queryRunner.query(`DROP TRIGGER custom_links_touch_updated_at ON custom_links`);
    await queryRunner.query(trigger);
  }
}
