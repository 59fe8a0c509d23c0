import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoint filters (issue 33 point 5, docs/api.md §16.7): the campaigns and links whose
 * lifecycle events an endpoint receives. Two uuid arrays on the endpoint row, both null without a
 * filter; the outbox reads them in the statement that fans a message out to the organization's
 * endpoints (by the primary key, organization_id first), so no index is added. The check repeats
 * the API's bounds (at most 1,000 ids per list, at least one id in a filter).
 */
export class WebhookFilters1766650000000 implements MigrationInterface {
  name = 'WebhookFilters1766650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN filter_campaign_ids uuid[],
        ADD COLUMN filter_link_ids uuid[],
        ADD CONSTRAINT webhook_endpoints_filter_check CHECK (
          (filter_campaign_ids IS NULL AND filter_link_ids IS NULL)
          OR (filter_campaign_ids IS NOT NULL AND filter_link_ids IS NOT NULL
              AND cardinality(filter_campaign_ids) <= 1000 AND cardinality(filter_link_ids) <= 1000
              AND cardinality(filter_campaign_ids) + cardinality(filter_link_ids) > 0))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhook_endpoints
        DROP CONSTRAINT webhook_endpoints_filter_check,
        DROP COLUMN filter_link_ids,
        DROP COLUMN filter_campaign_ids`);
  }
}
