import type { MigrationInterface, QueryRunner } from 'typeorm';

const KEY = 'custom_links_organization_id_campaign_id_fkey';
const REFERENCE = `FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)`;

/**
 * Citus refuses `ON DELETE SET NULL (campaign_id)`, a referential action on part of a foreign key
 * holding the distribution column (issue 35). Deleting a campaign already unfiles its links first,
 * in its transaction and under the campaign's row lock (CampaignsService.delete), so the key becomes a
 * plain one that refuses a campaign still holding links. Added NOT VALID, then validated: the check of
 * the existing links reads them without blocking their writers.
 */
export class CampaignLinksNoSetNull1767100000002 implements MigrationInterface {
  name = 'CampaignLinksNoSetNull1767100000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, REFERENCE);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, `${REFERENCE} ON DELETE SET NULL (campaign_id)`);
  }

  private async replace(queryRunner: QueryRunner, definition: string): Promise<void> {
    // Two statements: Citus runs no ADD CONSTRAINT beside another subcommand on a distributed table.
    await queryRunner.query(`ALTER TABLE custom_links DROP CONSTRAINT ${KEY}`);
    await queryRunner.query(`ALTER TABLE custom_links ADD CONSTRAINT ${KEY} ${definition} NOT VALID`);
    await queryRunner.query(`ALTER TABLE custom_links VALIDATE CONSTRAINT ${KEY}`);
  }
}
