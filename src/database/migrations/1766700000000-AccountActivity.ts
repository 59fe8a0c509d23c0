import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's activity (issue 33 point 4, docs/api.md §4.2) merges two keyset reads, each one
 * statement of its owner over the indexes that exist:
 *
 * - the sessions of the account's people (sessions): person_accounts, people's new read model
 *   (people_account_idx finds the people of a domain), then each person's visible sessions by email
 *   key (sessions_person_key_idx), newest first;
 * - the human, external events of the account's links (engagement): link_rollups.account_domain
 *   (custom_links_account_idx, migration LinkAccountDomains), then each link's events newest first
 *   (link_events_link_idx scanned backwards), each session's person from visible_sessions (its key).
 */
export class AccountActivity1766700000000 implements MigrationInterface {
  name = 'AccountActivity1766700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW person_accounts AS SELECT organization_id, id AS person_id, email_key, account_domain FROM people`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW person_accounts`);
  }
}
