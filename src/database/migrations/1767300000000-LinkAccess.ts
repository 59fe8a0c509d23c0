import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links that expire and stop (issue 36, docs/api.md §6.1): an expiry time, a cap on human opens and
 * where an expired or capped link sends its visitors. `human_opens` counts the human, external opens
 * redirected while the link had a cap: GET /l/{slug} reserves one with a conditional UPDATE, so the
 * cap holds under concurrency. `access_closed_at`: when the link was seen to become expired or
 * capped (the custom_link.expired webhook went out), null while it is open.
 *
 * Indexes, all partial so that uncapped links without expiry (most of them) stay out:
 * - custom_links_expiry_idx (organization_id, expires_at): the list's access_state filter and the
 *   expiry sweep, a range on a bound time;
 * - custom_links_capped_idx (organization_id, id) on capped links: the access_state filter. The
 *   predicate names max_human_opens only, so a reservation (human_opens) stays a HOT update;
 * - custom_links_access_due_idx (expires_at) on links with an expiry or a cap not yet seen closed:
 *   the sweep's read across organizations (by expiry time), which a link leaves once announced.
 */
export class LinkAccess1767300000000 implements MigrationInterface {
  name = 'LinkAccess1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE custom_links ADD COLUMN expires_at timestamptz,
         ADD COLUMN max_human_opens integer CHECK (max_human_opens BETWEEN 1 AND 1000000),
         ADD COLUMN expired_redirect_url text,
         ADD COLUMN human_opens integer NOT NULL DEFAULT 0,
         ADD COLUMN access_closed_at timestamptz`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_expiry_idx ON custom_links (organization_id, expires_at) WHERE expires_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_capped_idx ON custom_links (organization_id, id) WHERE max_human_opens IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_access_due_idx ON custom_links (expires_at)
        WHERE access_closed_at IS NULL AND (expires_at IS NOT NULL OR max_human_opens IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX custom_links_access_due_idx`);
    await queryRunner.query(`DROP INDEX custom_links_capped_idx`);
    await queryRunner.query(`DROP INDEX custom_links_expiry_idx`);
    await queryRunner.query(
      `ALTER TABLE custom_links DROP COLUMN access_closed_at, DROP COLUMN human_opens,
         DROP COLUMN expired_redirect_url, DROP COLUMN max_human_opens, DROP COLUMN expires_at`,
    );
  }
}
