import type { MigrationInterface, QueryRunner } from 'typeorm';

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;

/**
 * Sessions, their transcripts, and the people and accounts rolled up from them.
 *
 * The list indexes are partial on the visible sessions (production, analyzed) and lead with
 * organization_id and the list's sort, with the enum filters INCLUDEd: a page, a deep offset and an
 * exact filtered count are index-only scans. Email substring filters use trigram GIN indexes on the
 * lower-cased email; the organization is checked on the (few) matching rows. Leading the GIN index
 * with organization_id (btree_gin) would make every match read the organization's whole posting list.
 */
export class SessionsPeopleAccounts1763900000000 implements MigrationInterface {
  name = 'SessionsPeopleAccounts1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await queryRunner.query(`
      CREATE TABLE sessions (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        environment varchar(16) NOT NULL CHECK (environment IN ('production', 'staging')),
        analysis_status varchar(16) NOT NULL CHECK (analysis_status IN ('pending', 'analyzed')),
        display_id varchar(255),
        start_time timestamptz NOT NULL,
        end_time timestamptz,
        session_type varchar(255),
        email varchar(320),
        email_key varchar(320),
        name varchar(255),
        business varchar(255),
        phone varchar(255),
        person_id uuid,
        qualification_status varchar(16),
        effective_qualification_status varchar(16),
        qualification_rationale text,
        qualification_source varchar(16),
        qualification_assessed_at timestamptz,
        qualification_rubric_version_id varchar(255),
        buying_intent varchar(16),
        booked_status varchar(16),
        session_status varchar(255),
        sentiment varchar(255),
        engagement_level varchar(255),
        primary_intent varchar(255),
        summary_markdown text,
        utm_source varchar(255),
        device varchar(255),
        geo_country varchar(255),
        tracking jsonb NOT NULL,
        details jsonb NOT NULL,
        custom_link_id uuid,
        custom_link_campaign_id uuid,
        fingerprint char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    // A session id is the pipeline's idempotency key: it can belong to one organization only.
    await queryRunner.query(`CREATE UNIQUE INDEX sessions_id_key ON sessions (id)`);
    // GET /sessions: newest first, filters on the INCLUDEd columns, deferred join for deep offsets.
    await queryRunner.query(`
      CREATE INDEX sessions_list_idx ON sessions (organization_id, start_time DESC, id DESC)
        INCLUDE (effective_qualification_status, buying_intent, booked_status) WHERE ${VISIBLE}`);
    await queryRunner.query(`
      CREATE INDEX sessions_email_trgm_idx ON sessions USING gin (email_key gin_trgm_ops) WHERE ${VISIBLE}`);
    // Person rollups read a person's visible sessions by email key.
    await queryRunner.query(`
      CREATE INDEX sessions_person_key_idx ON sessions (organization_id, email_key) WHERE ${VISIBLE} AND email_key IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE session_transcripts (
        organization_id uuid NOT NULL,
        session_id uuid NOT NULL,
        entries jsonb NOT NULL,
        total integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, session_id),
        FOREIGN KEY (organization_id, session_id) REFERENCES sessions (organization_id, id) ON DELETE CASCADE
      )`);

    await queryRunner.query(`
      CREATE TABLE people (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        email_key varchar(320) NOT NULL,
        name varchar(255),
        phone varchar(255),
        business varchar(255),
        total_sessions integer NOT NULL,
        booked_sessions integer NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        total_time_spent_seconds bigint NOT NULL,
        first_source varchar(255),
        last_source varchar(255),
        last_location varchar(800),
        qualification_status varchar(16),
        qualification_rationale text,
        qualification_source varchar(16),
        qualification_assessed_at timestamptz,
        qualification_rubric_version_id varchar(255),
        buying_intent varchar(16),
        account_domain varchar(255),
        summary_markdown text,
        intent_score double precision NOT NULL,
        overall_intent varchar(16) NOT NULL,
        intent_calculated_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX people_email_key ON people (organization_id, email_key)`);
    // GET /people: lastSeenAt newest first, filters on the INCLUDEd columns.
    await queryRunner.query(`
      CREATE INDEX people_list_idx ON people (organization_id, last_seen_at DESC, id DESC)
        INCLUDE (buying_intent, qualification_status)`);
    await queryRunner.query(`CREATE INDEX people_email_trgm_idx ON people USING gin (email_key gin_trgm_ops)`);
    // Account rollups read the people of one domain.
    await queryRunner.query(
      `CREATE INDEX people_account_idx ON people (organization_id, account_domain) WHERE account_domain IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE accounts (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        account_domain varchar(255) NOT NULL,
        company_name varchar(255),
        total_users integer NOT NULL,
        total_sessions integer NOT NULL,
        booked_sessions integer NOT NULL,
        high_intent_users integer NOT NULL,
        qualified_users integer NOT NULL,
        total_time_spent_seconds bigint NOT NULL,
        last_seen_at timestamptz NOT NULL,
        summary_markdown text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX accounts_domain_key ON accounts (organization_id, account_domain)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE accounts`);
    await queryRunner.query(`DROP TABLE people`);
    await queryRunner.query(`DROP TABLE session_transcripts`);
    await queryRunner.query(`DROP TABLE sessions`);
  }
}
