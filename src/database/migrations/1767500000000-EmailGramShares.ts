import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How common each email 3-gram is in an organization, so that an email search asks the grams index
 * for its rarest grams only (issue 35, point 5: the first page of a search through
 * session_emails_grams_idx grew 2.1 × from 1 M to 3 M sessions, because the bitmap scan decodes every
 * gram's posting list and a common gram's list grows with the organization; bench/RESULTS.md "The
 * email search's growth, taken apart").
 *
 * `session_email_gram_samples`: when an organization's emails were last sampled, how many visible
 * sessions it had then (the sweep samples again once that moved by a quarter) and how many emails the
 * sample held. `session_email_gram_shares`: per gram, in how many of those emails it occurs. A gram is
 * named by its hash with the organization (session_email_grams, migration TenantEmailSearch), as in the
 * index: no email or part of one is stored, and a gram seen in fewer than two sampled emails is not
 * kept (docs/privacy.md). Both are the organization's and go with it.
 */
export class EmailGramShares1767500000000 implements MigrationInterface {
  name = 'EmailGramShares1767500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE session_email_gram_samples (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        sessions bigint NOT NULL,
        entries integer NOT NULL,
        sampled_at timestamptz NOT NULL)`);
    await queryRunner.query(`
      CREATE TABLE session_email_gram_shares (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        gram bigint NOT NULL,
        entries integer NOT NULL,
        PRIMARY KEY (organization_id, gram))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE session_email_gram_shares`);
    await queryRunner.query(`DROP TABLE session_email_gram_samples`);
  }
}
