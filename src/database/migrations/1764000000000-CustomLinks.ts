import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom Links, their creation/thumbnail jobs with one row per requested item, thumbnail renders
 * and the stored images. A job item carries the id of the link it creates, assigned at request
 * time, so a job resumed after a crash can only ever create that link once.
 */
export class CustomLinks1764000000000 implements MigrationInterface {
  name = 'CustomLinks1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE custom_link_jobs (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        type varchar(16) NOT NULL CHECK (type IN ('create', 'thumbnail')),
        status varchar(24) NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'completed_with_errors', 'cancelled', 'failed')),
        total_items integer NOT NULL,
        campaign_id uuid,
        campaign_name varchar(255),
        parent_job_id uuid,
        cancel_requested boolean NOT NULL DEFAULT false,
        render_units integer NOT NULL DEFAULT 0,
        started_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id)
      )`);
    // GET /custom-link-jobs: newest first, optionally by campaign.
    await queryRunner.query(
      `CREATE INDEX custom_link_jobs_list_idx ON custom_link_jobs (organization_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_link_jobs_campaign_idx ON custom_link_jobs (organization_id, campaign_id, created_at DESC, id DESC)`,
    );

    await queryRunner.query(`
      CREATE TABLE custom_link_job_items (
        organization_id uuid NOT NULL,
        job_id uuid NOT NULL,
        index integer NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'created', 'failed', 'cancelled')),
        custom_link_id uuid NOT NULL,
        external_id varchar(255),
        input jsonb NOT NULL,
        error_code varchar(32),
        error_message varchar(500),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, job_id, index),
        FOREIGN KEY (organization_id, job_id) REFERENCES custom_link_jobs (organization_id, id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX custom_link_job_items_queued_idx ON custom_link_job_items (organization_id, job_id, index) WHERE status = 'queued'`,
    );

    await queryRunner.query(`
      CREATE TABLE custom_links (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        slug varchar(32) NOT NULL,
        display_name varchar(255) NOT NULL,
        active boolean NOT NULL DEFAULT true,
        external_id varchar(255),
        first_name varchar(255),
        last_name varchar(255),
        email varchar(255),
        phone varchar(50),
        role varchar(255),
        company varchar(255),
        context varchar(10000),
        share_title varchar(255),
        share_description varchar(500),
        share_thumbnail_url varchar(2083),
        prospect_logo_url varchar(2083),
        prospect_domain varchar(255),
        campaign_id uuid,
        job_id uuid,
        thumbnail_status varchar(16) NOT NULL,
        thumbnail_attempts integer NOT NULL DEFAULT 0,
        thumbnail_error_code varchar(32),
        thumbnail_error_message varchar(500),
        thumbnail_render_id uuid,
        stage varchar(16) NOT NULL DEFAULT 'not_opened',
        last_activity_at timestamptz,
        search_text text GENERATED ALWAYS AS (lower(
          coalesce(display_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' ||
          coalesce(email, '') || ' ' || coalesce(company, '') || ' ' || coalesce(external_id, ''))) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        -- Deleting a campaign unfiles its links in the same statement (docs/api.md §12.4).
        FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id) ON DELETE SET NULL (campaign_id)
      )`);
    // GET /l/{slug} finds a link before knowing its organization.
    await queryRunner.query(`CREATE UNIQUE INDEX custom_links_slug_key ON custom_links (slug)`);
    // GET /custom-links: created_at (default) or last activity, either direction, optionally by campaign.
    await queryRunner.query(
      `CREATE INDEX custom_links_created_idx ON custom_links (organization_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_activity_idx ON custom_links (organization_id, last_activity_at DESC NULLS LAST, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_campaign_idx ON custom_links (organization_id, campaign_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_external_id_idx ON custom_links (organization_id, external_id) WHERE external_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_email_idx ON custom_links (organization_id, lower(email)) WHERE email IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX custom_links_job_idx ON custom_links (organization_id, job_id)`);
    await queryRunner.query(
      `CREATE INDEX custom_links_search_trgm_idx ON custom_links USING gin (search_text gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX custom_links_company_trgm_idx ON custom_links USING gin (lower(company) gin_trgm_ops)`,
    );

    await queryRunner.query(`
      CREATE TABLE thumbnail_renders (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        custom_link_id uuid NOT NULL,
        job_id uuid NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'processing', 'generated', 'fallback', 'failed', 'cancelled')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, custom_link_id) REFERENCES custom_links (organization_id, id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX thumbnail_renders_job_idx ON thumbnail_renders (organization_id, job_id, status)`,
    );

    await queryRunner.query(`
      CREATE TABLE thumbnail_images (
        custom_link_id uuid NOT NULL,
        hash char(64) NOT NULL,
        organization_id uuid NOT NULL,
        png bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (custom_link_id, hash),
        FOREIGN KEY (organization_id, custom_link_id) REFERENCES custom_links (organization_id, id) ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE thumbnail_images`);
    await queryRunner.query(`DROP TABLE thumbnail_renders`);
    await queryRunner.query(`DROP TABLE custom_links`);
    await queryRunner.query(`DROP TABLE custom_link_job_items`);
    await queryRunner.query(`DROP TABLE custom_link_jobs`);
  }
}
