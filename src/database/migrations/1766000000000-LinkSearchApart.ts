import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the link list's `q` and `company` filters match, as a custom_links row holds it (search_text is generated). */
const COPIED = (row: string) => `${row}.search_text, lower(${row}.company)`;

/**
 * The link search's trigram indexes move off custom_links into a narrow copy of what they index,
 * custom_link_search, kept by triggers in the writing transaction (issue 21).
 *
 * Event ingestion rewrites hundreds of link rows per batch to merge their rollups, and a row that is
 * rewritten gets new entries in every index of its table: each rollup merge re-inserted all of a
 * link's trigrams into two GIN indexes, though its search text never changes with engagement. Without
 * them PostgreSQL spends about a sixth less CPU per ingested event, and ingestion runs about 16 %
 * faster (bench/RESULTS.md, issue 21, session 11). The copy changes only when a searched column does: links
 * are created (statement trigger, one INSERT per statement) or edited (row trigger, fired only when
 * an UPDATE changes what is copied: a rollup merge's WHEN is false and queues nothing).
 */
export class LinkSearchApart1766000000000 implements MigrationInterface {
  name = 'LinkSearchApart1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE custom_link_search (
        organization_id uuid NOT NULL,
        custom_link_id uuid NOT NULL,
        search_text text,
        company_key text,
        PRIMARY KEY (organization_id, custom_link_id),
        FOREIGN KEY (organization_id, custom_link_id) REFERENCES custom_links (organization_id, id) ON DELETE CASCADE)`);
    await queryRunner.query(
      `INSERT INTO custom_link_search SELECT l.organization_id, l.id, ${COPIED('l')} FROM custom_links l`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_link_search_text_trgm_idx ON custom_link_search USING gin (search_text gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_link_search_company_trgm_idx ON custom_link_search USING gin (company_key gin_trgm_ops)`,
    );
    // Statistics now, not at autovacuum's next pass: without them a search is planned as a bitmap AND
    // of the organization's whole primary-key range with the trigram match (17-67 ms against 7-11).
    await queryRunner.query(`ANALYZE custom_link_search`);
    await queryRunner.query(`
      CREATE FUNCTION custom_link_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO custom_link_search SELECT n.organization_id, n.id, ${COPIED('n')} FROM new_rows n;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION custom_link_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE custom_link_search SET (search_text, company_key) = (SELECT ${COPIED('NEW')})
         WHERE organization_id = NEW.organization_id AND custom_link_id = NEW.id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER custom_links_search_insert AFTER INSERT ON custom_links
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_link_search_insert()`);
    await queryRunner.query(`
      CREATE TRIGGER custom_links_search_update AFTER UPDATE ON custom_links FOR EACH ROW
        WHEN ((${COPIED('OLD')}) IS DISTINCT FROM (${COPIED('NEW')}))
        EXECUTE FUNCTION custom_link_search_update()`);
    await queryRunner.query(`DROP INDEX custom_links_search_trgm_idx`);
    await queryRunner.query(`DROP INDEX custom_links_company_trgm_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX custom_links_search_trgm_idx ON custom_links USING gin (search_text gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_company_trgm_idx ON custom_links USING gin (lower(company) gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP TRIGGER custom_links_search_update ON custom_links`);
    await queryRunner.query(`DROP TRIGGER custom_links_search_insert ON custom_links`);
    await queryRunner.query(`DROP FUNCTION custom_link_search_update()`);
    await queryRunner.query(`DROP FUNCTION custom_link_search_insert()`);
    await queryRunner.query(`DROP TABLE custom_link_search`);
  }
}
