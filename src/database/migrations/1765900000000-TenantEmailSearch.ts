import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The organization's 3-grams of an email, hashed: one GIN key per (organization, 3-gram). */
const GRAMS_FUNCTION = `
  CREATE OR REPLACE FUNCTION session_email_grams(organization_id uuid, email text) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ARRAY(SELECT hashtextextended(organization_id::text || substr(email, i, 3), 0) FROM generate_series(1, length(email) - 2) AS i)`;

/**
 * The email search becomes tenant-local (issue 21): its trigram index is replaced by a GIN index
 * whose keys are (organization, 3-gram) pairs, so every posting list holds one organization's
 * sessions and a search reads only the searched organization's entries and candidates.
 *
 * With pg_trgm's index, a substring's trigrams had one posting list across all organizations: a
 * tenant of 100,000 sessions read the lists of a neighbour with a million, and its searches slowed
 * down as other tenants grew. Leading that index with organization_id (btree_gin) did not help:
 * GIN intersects the organization's entry with each trigram's list by skipping, but organizations
 * write their sessions interleaved, so a tenant's rows sit on every leaf of a common trigram's
 * list and the skips cost more than reading it (bench/RESULTS.md, issue 21).
 *
 * The grams are the email's raw 3-grams, punctuation included (`ll@` and `@gm` are grams of their
 * own, which pg_trgm's word trigrams are not), hashed with the organization by hashtextextended,
 * the stable hash that hash partitioning relies on. A collision only adds a candidate, which the
 * LIKE recheck drops. The planner cannot estimate a conjunction of correlated grams, so the
 * repository chooses between this index and walking the list index itself (sessions.repository.ts),
 * and no statistics are gathered on the expression (they would cost ANALYZE a call per sampled row).
 *
 * Built CONCURRENTLY, so sessions keep being written while it builds on a large table; that cannot
 * run in a transaction, hence `transaction = false` (the project's migration command runs each
 * migration in its own transaction unless it says otherwise, and reverts this one without). An
 * interrupted build leaves an invalid index: each step drops it first, so running again finishes.
 */
export class TenantEmailSearch1765900000000 implements MigrationInterface {
  name = 'TenantEmailSearch1765900000000';
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(GRAMS_FUNCTION);
    await this.rebuild(queryRunner, 'session_emails_grams_idx', 'session_email_grams(organization_id, email_key)');
    await queryRunner.query(`ALTER INDEX session_emails_grams_idx ALTER COLUMN 1 SET STATISTICS 0`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS session_emails_trgm_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.rebuild(queryRunner, 'session_emails_trgm_idx', 'email_key gin_trgm_ops');
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS session_emails_grams_idx`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS session_email_grams(uuid, text)`);
  }

  private async rebuild(queryRunner: QueryRunner, name: string, key: string): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await queryRunner.query(`CREATE INDEX CONCURRENTLY ${name} ON session_emails USING gin (${key})`);
  }
}
