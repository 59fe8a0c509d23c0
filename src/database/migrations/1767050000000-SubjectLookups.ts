import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How erasure and the right of access (issue 34, docs/api.md §18) find a person's records: every
 * session of an email, visible or not (sessions_person_key_idx holds visible sessions only), and the
 * sessions and links of a phone by its digits (the expression of phoneDigitsSql). Without them each
 * lookup reads all of the organization's sessions or links, past the statement timeout on a large one.
 *
 * Built CONCURRENTLY, so sessions and links keep being written while they build; that cannot run in
 * a transaction, hence `transaction = false`. An interrupted build leaves an invalid index: each is
 * dropped first, so running again finishes.
 */
const INDEXES: [name: string, definition: string][] = [
  ['sessions_email_key_idx', `sessions (organization_id, email_key) WHERE email_key IS NOT NULL`],
  [
    'sessions_phone_digits_idx',
    `sessions (organization_id, (regexp_replace(phone, '\\D', '', 'g'))) WHERE phone IS NOT NULL`,
  ],
  [
    'custom_links_phone_digits_idx',
    `custom_links (organization_id, (regexp_replace(phone, '\\D', '', 'g'))) WHERE phone IS NOT NULL`,
  ],
];

export class SubjectLookups1767050000000 implements MigrationInterface {
  name = 'SubjectLookups1767050000000';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
}
