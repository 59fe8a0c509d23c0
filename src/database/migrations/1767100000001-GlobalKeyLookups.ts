import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The lookup tables: a global key, the organization that holds it and the row's id (issue 35). */
const LOOKUPS: [table: string, definition: string, backfill: string][] = [
  [
    'api_key_lookups',
    `id uuid PRIMARY KEY, key_hash char(64) NOT NULL UNIQUE, organization_id uuid NOT NULL`,
    `SELECT id, key_hash, organization_id FROM api_keys`,
  ],
  ['session_ids', `id uuid PRIMARY KEY, organization_id uuid NOT NULL`, `SELECT id, organization_id FROM sessions`],
  [
    'custom_link_slugs',
    `slug varchar(32) PRIMARY KEY, custom_link_id uuid NOT NULL UNIQUE, organization_id uuid NOT NULL`,
    `SELECT slug, id, organization_id FROM custom_links`,
  ],
];

/** The unique indexes across organizations the lookups replace. */
const GLOBAL_INDEXES: [name: string, definition: string][] = [
  ['api_keys_key_hash_key', 'api_keys (key_hash)'],
  ['api_keys_id_key', 'api_keys (id)'],
  ['sessions_id_key', 'sessions (id)'],
  ['custom_links_slug_key', 'custom_links (slug)'],
];

/**
 * Citus enforces a unique index only when it holds the distribution column (issue 35): the four
 * that span organizations (a key's hash and id, a session's id, a link's slug) become lookup tables
 * keyed by the global value, holding the organization and the row's id. Each is written in the
 * transaction that writes its row (the owner's repository), so the value stays unique across
 * organizations as the index kept it, and the routes that start from it (key authentication, the
 * admin revocation by id, session ingestion, GET /l/{slug}, the public card) read the lookup first and
 * then the row within its organization. On Citus they are global (reference tables, `session_ids`
 * distributed by its id); they carry no foreign key, which Citus could not keep, so deleting an organization (no route
 * does) leaves its lookup rows behind: they lead to no row, and a session id's is taken over by the
 * next ingestion of that id.
 *
 * Cost per write: one more primary-key insert (two index entries for keys and links) in the same
 * transaction, about 60 bytes a row with its indexes; a session's is written only when the session is
 * first stored. The backfill is one INSERT … SELECT per table: at the benchmark's 1 M sessions and
 * 200,000 links a few seconds each, reading the tables while they are written. A row written by an
 * older instance after its table's backfill (a rolling deploy) has no lookup: deploy with writers of
 * sessions and links stopped, or rerun the INSERT … SELECT ON CONFLICT DO NOTHING below once they are.
 *
 * `thumbnail_images`' primary key gains `organization_id` (the card read resolves the organization
 * through the link's slug lookup first), and links get a unique index on (organization_id, slug) for
 * event ingestion's slugs, which the global index served before. Indexes are built CONCURRENTLY,
 * hence `transaction = false`; each step can run again after an interruption.
 */
export class GlobalKeyLookups1767100000001 implements MigrationInterface {
  name = 'GlobalKeyLookups1767100000001';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, definition, backfill] of LOOKUPS) {
      await queryRunner.query(`CREATE TABLE IF NOT EXISTS ${table} (${definition})`);
      await queryRunner.query(`INSERT INTO ${table} ${backfill} ON CONFLICT DO NOTHING`);
    }
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS custom_links_organization_slug_key`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX CONCURRENTLY custom_links_organization_slug_key ON custom_links (organization_id, slug)`,
    );
    await this.replaceCardKey(queryRunner, 'organization_id, custom_link_id, hash');
    for (const [name] of GLOBAL_INDEXES) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of GLOBAL_INDEXES) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE UNIQUE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
    await this.replaceCardKey(queryRunner, 'custom_link_id, hash');
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS custom_links_organization_slug_key`);
    for (const [table] of [...LOOKUPS].reverse()) await queryRunner.query(`DROP TABLE IF EXISTS ${table}`);
  }

  /** Builds the new key's index beside the old one, then swaps the constraint onto it (a brief exclusive lock). */
  private async replaceCardKey(queryRunner: QueryRunner, columns: string): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS thumbnail_images_new_key`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX CONCURRENTLY thumbnail_images_new_key ON thumbnail_images (${columns})`,
    );
    await queryRunner.query(`
      ALTER TABLE thumbnail_images DROP CONSTRAINT thumbnail_images_pkey,
        ADD CONSTRAINT thumbnail_images_pkey PRIMARY KEY USING INDEX thumbnail_images_new_key`);
  }
}
