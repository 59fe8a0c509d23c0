import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A Custom Link's account domain from its prospect email and prospectDomain (null: none). */
export type LinkAccountDomainRule = (email: string | null, prospectDomain: string | null) => string | null;

/** Links read per round trip of the backfill. */
const CHUNK = 5000;

const LINK_ROLLUPS = `organization_id, id AS link_id, campaign_id, created_at, active, stage, first_lead_submitted_at,
  first_meeting_clicked_at, first_meeting_booked_at, bot_open_count, open_observed`;

interface LinkContact {
  organization_id: string;
  id: string;
  email: string | null;
  prospect_domain: string | null;
}

/**
 * A Custom Link's account domain stored on the link (issue 33 point 4: account engagement and activity
 * group links by it; analytics by account reads it too): `custom_links.account_domain`, the
 * registrable domain of the prospect email unless it is free mail, else that of prospectDomain, null
 * when neither gives one. Every write of the email or prospectDomain sets it (custom-links'
 * withAccountDomain); this migration fills it for the links made before.
 *
 * The rule is TypeScript (the Public Suffix List and the free-mail list are packages), so the
 * backfill runs it: the links are read in primary-key chunks and written back. The migration imports
 * nothing; the migration list passes it the application's rule (`linkAccountDomains(rule)`), so the
 * stored values are the ones a write path would store. The touch trigger is off meanwhile: nothing a
 * link shows changes, so its updatedAt must not (a sync would fetch every link again).
 *
 * - custom_links_account_idx (organization_id, account_domain), partial: the lookups are equalities on
 *   a domain; organization_id leads, as every key (the schema distributes by it on Citus).
 * - link_rollups, custom-links' read model, gains account_domain (a view may gain columns at its end).
 */
export function linkAccountDomains(rule: LinkAccountDomainRule) {
  return class LinkAccountDomains1766600000000 implements MigrationInterface {
    name = 'LinkAccountDomains1766600000000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`ALTER TABLE custom_links ADD COLUMN account_domain text`);
      await queryRunner.query(`ALTER TABLE custom_links DISABLE TRIGGER custom_links_touch_updated_at`);
      let after: LinkContact | undefined;
      for (;;) {
        const links: LinkContact[] = await queryRunner.query(
          `SELECT organization_id, id, email, prospect_domain FROM custom_links
            WHERE (email IS NOT NULL OR prospect_domain IS NOT NULL) ${after ? 'AND (organization_id, id) > ($1::uuid, $2::uuid)' : ''}
            ORDER BY organization_id, id LIMIT ${CHUNK}`,
          after ? [after.organization_id, after.id] : [],
        );
        if (links.length === 0) break;
        const derived = links
          .map((link) => ({
            organization_id: link.organization_id,
            id: link.id,
            account_domain: rule(link.email, link.prospect_domain),
          }))
          .filter((link) => link.account_domain !== null);
        if (derived.length > 0)
          await queryRunner.query(
            `UPDATE custom_links l SET account_domain = d.account_domain
               FROM jsonb_to_recordset($1::jsonb) AS d(organization_id uuid, id uuid, account_domain text)
              WHERE l.organization_id = d.organization_id AND l.id = d.id`,
            [JSON.stringify(derived)],
          );
        after = links[links.length - 1];
      }
      await queryRunner.query(`ALTER TABLE custom_links ENABLE TRIGGER custom_links_touch_updated_at`);
      await queryRunner.query(
        `CREATE INDEX custom_links_account_idx ON custom_links (organization_id, account_domain) WHERE account_domain IS NOT NULL`,
      );
      await queryRunner.query(
        `CREATE OR REPLACE VIEW link_rollups AS SELECT ${LINK_ROLLUPS}, account_domain FROM custom_links`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      // A view cannot drop a column by CREATE OR REPLACE.
      await queryRunner.query(`DROP VIEW link_rollups`);
      await queryRunner.query(`CREATE VIEW link_rollups AS SELECT ${LINK_ROLLUPS} FROM custom_links`);
      await queryRunner.query(`DROP INDEX custom_links_account_idx`);
      await queryRunner.query(`ALTER TABLE custom_links DROP COLUMN account_domain`);
    }
  };
}
